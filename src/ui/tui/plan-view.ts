import { type Component, Markdown, truncateToWidth, wrapTextWithAnsi } from '@mariozechner/pi-tui';
import type { PlanDisplay } from '../../wire/events.js';
import { sanitizeForTerminal } from './sanitize-for-terminal.js';
import type { TuiStyle } from './tui-style.js';

/** Where a plan stands: on its own (a resumed session), in its panel now, or answered there. */
type PlanState = { kind: 'shown' } | { kind: 'in-panel' } | { kind: 'answered'; outcome: string };

/**
 * A plan ExitPlanMode showed (PlanDisplay), in the conversation: its file and the plan as Markdown
 * behind a bar. While its panel asks for the answer the plan is in the panel, so here it is one line;
 * once answered it is shown whole with the answer, where it came in the conversation. The plan is
 * the model's text: every control character and escape sequence in it is shown, never interpreted.
 */
export class PlanView implements Component {
  private state: PlanState = { kind: 'shown' };
  private readonly markdown: Markdown;
  private cache: { width: number; lines: string[] } | null = null;

  constructor(
    readonly plan: PlanDisplay,
    private readonly style: TuiStyle,
  ) {
    this.markdown = new Markdown(sanitizeForTerminal(plan.content), 0, 0, style.markdown);
  }

  /** The file the plan is in, safe to print. */
  get filePath(): string {
    return sanitizeForTerminal(this.plan.file_path);
  }

  /** The plan's lines, rendered as Markdown to fit `width` (kept while the width stays). */
  planLines(width: number): string[] {
    if (this.cache?.width !== width) {
      const lines = this.markdown.render(Math.max(1, width));
      while (lines.length > 0 && lines.at(-1)?.trim() === '') lines.pop();
      this.cache = { width, lines };
    }
    return this.cache.lines;
  }

  /** Its panel took it: the conversation shows one line until it is answered. */
  movedToPanel(): void {
    this.state = { kind: 'in-panel' };
  }

  /** The panel closed with this outcome (plain text, e.g. `Approve`): the plan shows here whole. */
  answered(outcome: string): void {
    this.state = { kind: 'answered', outcome };
  }

  /** The header line: `Plan · <file>`. */
  header(width: number): string {
    const { style } = this;
    return truncateToWidth(`${style.bold(style.accent('Plan'))} ${style.dim(`· ${this.filePath}`)}`, width);
  }

  render(width: number): string[] {
    const { style } = this;
    if (this.state.kind === 'in-panel')
      return [truncateToWidth(`${this.header(width)} ${style.dim('(for your approval below)')}`, width)];
    const bar = style.border('│');
    const lines = [this.header(width), ...this.planLines(width - 2).map((line) => `${bar} ${line}`)];
    if (this.state.kind === 'answered')
      for (const line of wrapTextWithAnsi(`${style.accent('→')} ${this.state.outcome}`, width))
        lines.push(line);
    return lines;
  }

  invalidate(): void {
    this.markdown.invalidate();
    this.cache = null;
  }
}
