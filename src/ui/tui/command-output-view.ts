import { type Component, truncateToWidth } from '@mariozechner/pi-tui';
import { sanitizeForTerminal } from './sanitize-for-terminal.js';
import type { TuiStyle } from './tui-style.js';

/** Lines of a command's output kept on screen; the earlier ones are counted. */
const MAX_LINES = 200;

/** A command's output as it streams, sanitised, cut to the width, the last lines kept. */
export class CommandOutputView implements Component {
  private text = '';

  constructor(private readonly style: TuiStyle) {}

  append(text: string): void {
    this.text += text;
  }

  render(width: number): string[] {
    const lines = sanitizeForTerminal(this.text.replace(/\r\n/g, '\n')).replace(/\n$/, '').split('\n');
    if (lines.length === 1 && lines[0] === '') return [];
    const hidden = Math.max(0, lines.length - MAX_LINES);
    const shown = lines.slice(hidden).map((line) => truncateToWidth(line, width));
    return hidden > 0 ? [this.style.dim(`… ${hidden} earlier lines`), ...shown] : shown;
  }

  invalidate(): void {}
}
