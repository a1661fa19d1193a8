import { type TerminalSafe, terminalText as t } from '../../util/sanitize-terminal.js';
import type { PlanDisplay } from '../../wire/events.js';
import { type SafeComponent, SafeMarkdown } from './safe-component.js';
import { sanitizeForTerminal } from './sanitize-for-terminal.js';
import { fitLine, wrapLines } from './terminal-lines.js';
import type { TuiStyle } from './tui-style.js';

/** Where a plan stands: on its own (a resumed session), in its panel now, or answered there. */
type PlanState = { kind: 'shown' } | { kind: 'in-panel' } | { kind: 'answered'; outcome: TerminalSafe };

/**
 * A plan ExitPlanMode showed (PlanDisplay), in the conversation: its file and the plan as Markdown
 * behind a bar. While its panel asks for the answer the plan is in the panel, so here it is one line;
 * once answered it is shown whole with the answer, where it came in the conversation. The plan is
 * the model's text: every control character and escape sequence in it is shown, never interpreted.
 */
export class PlanView implements SafeComponent {
  private state: PlanState = { kind: 'shown' };
  private readonly markdown: SafeMarkdown;
  private cache: { width: number; lines: TerminalSafe[] } | null = null;

  constructor(
    readonly plan: PlanDisplay,
    private readonly style: TuiStyle,
  ) {
    this.markdown = new SafeMarkdown(sanitizeForTerminal(plan.content), style.markdown);
  }

  /** The file the plan is in, safe to print. */
  get filePath(): TerminalSafe {
    return sanitizeForTerminal(this.plan.file_path);
  }

  /** The plan's lines, rendered as Markdown to fit `width` (kept while the width stays). */
  planLines(width: number): TerminalSafe[] {
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
  answered(outcome: TerminalSafe): void {
    this.state = { kind: 'answered', outcome };
  }

  /** The header line: `Plan · <file>`. */
  header(width: number): TerminalSafe {
    const { style } = this;
    return fitLine(t`${style.bold(style.accent('Plan'))} ${style.dim(t`\u00B7 ${this.filePath}`)}`, width);
  }

  render(width: number): TerminalSafe[] {
    const { style } = this;
    if (this.state.kind === 'in-panel')
      return [fitLine(t`${this.header(width)} ${style.dim('(for your approval below)')}`, width)];
    const bar = style.border('│');
    const lines = [this.header(width), ...this.planLines(width - 2).map((line) => t`${bar} ${line}`)];
    if (this.state.kind === 'answered')
      for (const line of wrapLines(t`${style.accent('→')} ${this.state.outcome}`, width)) lines.push(line);
    return lines;
  }

  invalidate(): void {
    this.markdown.invalidate();
    this.cache = null;
  }
}
