import { truncateToWidth, wrapTextWithAnsi } from '@mariozechner/pi-tui';
import type { TerminalSafe } from '../../util/sanitize-terminal.js';

/**
 * pi-tui's width helpers for safe text: cutting or wrapping safe text (and re-applying our own
 * styles across the breaks) keeps it safe, so a component can build its lines as TerminalSafe[]
 * and the compiler checks that nothing unsanitised gets in.
 */
export function fitLine(line: TerminalSafe, width: number): TerminalSafe {
  return truncateToWidth(line, width) as TerminalSafe;
}

export function wrapLines(text: TerminalSafe, width: number): TerminalSafe[] {
  return wrapTextWithAnsi(text, width) as TerminalSafe[];
}
