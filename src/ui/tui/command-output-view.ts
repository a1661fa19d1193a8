import { type TerminalSafe, terminalText as t } from '../../util/sanitize-terminal.js';
import type { SafeComponent } from './safe-component.js';
import { sanitizeForTerminal } from './sanitize-for-terminal.js';
import { fitLine } from './terminal-lines.js';
import type { TuiStyle } from './tui-style.js';

/** Lines of a command's output kept on screen; the earlier ones are counted. */
const MAX_LINES = 200;

/** A command's output as it streams, sanitised, cut to the width, the last lines kept. */
export class CommandOutputView implements SafeComponent {
  private text = t``;
  /** A `\r` that ended the last piece: a `\n` may follow in the next one (one line end, not `␍`). */
  private heldReturn = false;

  constructor(private readonly style: TuiStyle) {}

  /** Output as it comes, sanitised once here, not per frame. */
  append(text: string): void {
    let piece = this.heldReturn ? `\r${text}` : text;
    this.heldReturn = piece.endsWith('\r');
    if (this.heldReturn) piece = piece.slice(0, -1);
    this.text = t`${this.text}${sanitizeForTerminal(piece)}`;
  }

  render(width: number): TerminalSafe[] {
    const lines = this.text.replace(/\n$/, '').split('\n') as TerminalSafe[];
    if (lines.length === 1 && lines[0] === '') return [];
    const hidden = Math.max(0, lines.length - MAX_LINES);
    const shown = lines.slice(hidden).map((line) => fitLine(line, width));
    return hidden > 0 ? [this.style.dim(t`\u2026 ${hidden} earlier lines`), ...shown] : shown;
  }

  invalidate(): void {}
}
