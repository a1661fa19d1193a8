import { type TerminalSafe, terminalText as t, trustedLiteral } from '../../util/sanitize-terminal.js';
import type { SafeComponent } from './safe-component.js';
import { sanitizeForTerminal } from './sanitize-for-terminal.js';
import { fitLine } from './terminal-lines.js';
import type { TuiStyle } from './tui-style.js';

/** How thinking is shown while it streams: its last lines, dimmed, or one line that says it is on. */
export type ThinkingDisplay = 'stream' | 'indicator';

/** Lines of thinking shown while it streams (Kimi CLI shows 6). */
const PREVIEW_LINES = 6;

/**
 * A stretch of thinking: a dimmed preview of its last lines (or a one-line indicator) while it
 * streams, folded into one line once the answer or a tool call starts.
 */
export class ThinkingView implements SafeComponent {
  private text = t``;
  private folded = false;

  constructor(
    private readonly style: TuiStyle,
    private readonly display: ThinkingDisplay,
  ) {}

  append(text: string): void {
    this.text = t`${this.text}${sanitizeForTerminal(text)}`;
  }

  fold(): void {
    this.folded = true;
  }

  render(width: number): TerminalSafe[] {
    const { style } = this;
    const lines = this.text.trimEnd().split('\n') as TerminalSafe[];
    if (this.folded || this.display === 'indicator') {
      const what = this.folded
        ? t`thought (${lines.length} line${lines.length === 1 ? t`` : t`s`})`
        : trustedLiteral('thinking…');
      return [fitLine(style.dim(style.italic(t`\u2234 ${what}`)), width)];
    }
    const preview = lines.slice(-PREVIEW_LINES);
    return [
      fitLine(style.dim('∴ thinking…'), width),
      ...preview.map((line) => fitLine(style.dim(style.italic(t`  ${line}`)), width)),
    ];
  }

  invalidate(): void {}
}
