import { sanitizeForTerminal as sanitize, type TerminalSafe } from '../../util/sanitize-terminal.js';

/**
 * The shared terminal sanitiser (src/util/sanitize-terminal.ts: every control character, escape
 * sequence and bidi override shown, never interpreted), with tabs as spaces: the TUI lays out lines
 * by their width, and a tab's width is the terminal's guess, not ours.
 */
export function sanitizeForTerminal(text: string): TerminalSafe {
  return sanitize(text).replaceAll('\t', '    ') as TerminalSafe;
}
