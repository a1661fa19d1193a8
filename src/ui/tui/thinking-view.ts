import { type Component, truncateToWidth } from '@mariozechner/pi-tui';
import { sanitizeForTerminal } from './sanitize-for-terminal.js';
import type { TuiStyle } from './tui-style.js';

/** How thinking is shown while it streams: its last lines, dimmed, or one line that says it is on. */
export type ThinkingDisplay = 'stream' | 'indicator';

/** Lines of thinking shown while it streams (Kimi CLI shows 6). */
const PREVIEW_LINES = 6;

/**
 * A stretch of thinking: a dimmed preview of its last lines (or a one-line indicator) while it
 * streams, folded into one line once the answer or a tool call starts.
 */
export class ThinkingView implements Component {
  private text = '';
  private folded = false;

  constructor(
    private readonly style: TuiStyle,
    private readonly display: ThinkingDisplay,
  ) {}

  append(text: string): void {
    this.text += sanitizeForTerminal(text);
  }

  fold(): void {
    this.folded = true;
  }

  render(width: number): string[] {
    const lines = this.text.trimEnd().split('\n');
    if (this.folded || this.display === 'indicator') {
      const what = this.folded
        ? `thought (${lines.length} line${lines.length === 1 ? '' : 's'})`
        : 'thinking…';
      return [truncateToWidth(this.style.dim(this.style.italic(`∴ ${what}`)), width)];
    }
    const preview = lines.slice(-PREVIEW_LINES);
    return [
      truncateToWidth(this.style.dim('∴ thinking…'), width),
      ...preview.map((line) => truncateToWidth(this.style.dim(this.style.italic(`  ${line}`)), width)),
    ];
  }

  invalidate(): void {}
}
