import { type Focusable, Input, matchesKey } from '@mariozechner/pi-tui';
import { type TerminalSafe, terminalText as t, trustedLiteral } from '../../util/sanitize-terminal.js';
import type { QuestionItem, QuestionRequest } from '../../wire/requests.js';
import { ArmDelay } from './arm-delay.js';
import type { PlanView } from './plan-view.js';
import type { SafeComponent } from './safe-component.js';
import { sanitizeForTerminal } from './sanitize-for-terminal.js';
import { fitLine, wrapLines } from './terminal-lines.js';
import type { TuiStyle } from './tui-style.js';

/** Lines kept free under the panel for the prompt editor and the status line. */
const RESERVED_ROWS = 6;
/** The plan's window is never smaller than this, however short the terminal. */
const MIN_PLAN_ROWS = 3;

/** What the panel needs of its terminal. */
export interface PlanPanelOptions {
  /** The terminal's height now (the plan's window shrinks to fit it). */
  rows: () => number;
  now?: () => number;
}

/**
 * ExitPlanMode's panel: the plan (rendered Markdown, inert) in a window of bounded height that
 * PgUp/PgDn (or Shift-↑/↓, Home/End) scroll, its file, and the question's choices — Approve or the
 * model's options, Reject, Reject and Exit, and Revise with what to change — picked with ↑/↓ + Enter
 * or a number. Like every panel, keys count only once it has been on screen a moment (type-ahead never
 * answers it); Esc closes it without an answer (plan mode stays on).
 */
export class PlanPanel implements SafeComponent, Focusable {
  focused = false;
  private selected = 0;
  private top = 0;
  /** The plan's window in the last frame (paging moves by it). */
  private windowRows = MIN_PLAN_ROWS;
  private planRows = 0;
  private revising = false;
  private readonly feedback = new Input();
  /** Keys count from a moment after the first frame. */
  readonly arm: ArmDelay;
  private done = false;

  constructor(
    private readonly request: QuestionRequest,
    private readonly plan: PlanView,
    private readonly style: TuiStyle,
    private readonly onDone: () => void,
    private readonly options: PlanPanelOptions,
  ) {
    this.arm = new ArmDelay(options.now ?? Date.now);
    plan.movedToPanel();
    this.feedback.onSubmit = (text) => {
      const wanted = text.trim();
      if (!wanted) return;
      // The answer is the text itself: one that is a choice's label is read as that choice, and the
      // conversation says so.
      const isChoice = this.item.options.some((option) => option.label === wanted);
      const revise = this.item.other_label || 'Revise';
      this.answer(wanted, sanitizeForTerminal(isChoice ? wanted : `${revise}: ${wanted}`));
    };
    this.feedback.onEscape = () => {
      this.revising = false;
    };
  }

  /** Whether a question request is the one ExitPlanMode asks after showing its plan (one question). */
  static fits(request: QuestionRequest): boolean {
    return request.payload.questions.length === 1;
  }

  private get item(): QuestionItem {
    return this.request.payload.questions[0] as QuestionItem;
  }

  /** The choices: the question's options, then Revise (the free-text answer). */
  private get choices(): { label: string; description: string }[] {
    const item = this.item;
    return [
      ...item.options.map((o) => ({ label: o.label, description: o.description ?? '' })),
      { label: item.other_label || 'Revise', description: item.other_description ?? '' },
    ];
  }

  get isArmed(): boolean {
    return this.arm.isArmed;
  }

  handleInput(data: string): void {
    if (this.done || !this.arm.admit()) return;
    if (!this.request.isPending) {
      this.finish(trustedLiteral('closed elsewhere'));
      return;
    }
    if (this.scroll(data)) return;
    if (this.revising) {
      this.feedback.focused = true;
      this.feedback.handleInput(data);
      return;
    }
    const count = this.choices.length;
    if (matchesKey(data, 'up')) this.selected = (this.selected + count - 1) % count;
    else if (matchesKey(data, 'down')) this.selected = (this.selected + 1) % count;
    else if (matchesKey(data, 'enter')) this.choose(this.selected);
    else if (matchesKey(data, 'escape')) this.dismiss();
    else if (/^[1-9]$/.test(data) && Number(data) <= count) this.choose(Number(data) - 1);
  }

  render(width: number): TerminalSafe[] {
    this.arm.markShown();
    const { style } = this;
    const item = this.item;
    const choices = this.choices;
    const bottom: TerminalSafe[] = [];
    const question = t`${style.warn('?')} ${style.bold(sanitizeForTerminal(item.question))}`;
    bottom.push(...wrapLines(question, width));
    if (this.revising) {
      const ask = t`  ${style.bold('What should change in the plan?')} ${style.dim('(Enter sends, Esc goes back)')}`;
      bottom.push(fitLine(ask, width));
      this.feedback.focused = this.focused;
      // pi-tui's Input draws what the person types into it, sanitised there.
      for (const line of this.feedback.render(Math.max(1, width - 2)))
        bottom.push(fitLine(t`  ${line as TerminalSafe}`, width));
    } else {
      choices.forEach((choice, i) => {
        const text = t`${i + 1}. ${sanitizeForTerminal(choice.label)}`;
        const description = choice.description
          ? style.dim(t` \u2014 ${sanitizeForTerminal(choice.description)}`)
          : t``;
        const line = i === this.selected ? t`${style.accent('›')} ${style.selected(text)}` : t`  ${text}`;
        bottom.push(fitLine(t`${line}${description}`, width));
      });
    }
    const hint = this.revising
      ? trustedLiteral('  PgUp/PgDn scroll the plan')
      : trustedLiteral('  ↑/↓ + Enter, or a number · Esc closes');
    bottom.push(fitLine(style.dim(this.isArmed ? hint : trustedLiteral('  …')), width));

    const planLines = this.plan.planLines(Math.max(1, width - 2));
    const fixed = 2 + 1 + bottom.length; // border and header, the scroll line, the question part
    this.windowRows = Math.max(MIN_PLAN_ROWS, this.options.rows() - RESERVED_ROWS - fixed);
    this.planRows = planLines.length;
    this.top = Math.min(this.top, Math.max(0, planLines.length - this.windowRows));
    const bar = style.border('│');
    const shown = planLines.slice(this.top, this.top + this.windowRows).map((line) => t`${bar} ${line}`);
    const lines = [
      style.border(t`${'\u2500'.repeat(width) as TerminalSafe}`),
      this.plan.header(width),
      ...shown,
    ];
    if (planLines.length > this.windowRows) {
      const last = Math.min(planLines.length, this.top + this.windowRows);
      const where = t`  lines ${this.top + 1}\u2013${last} of ${planLines.length} \u00B7 PgUp/PgDn scroll`;
      lines.push(fitLine(style.dim(where), width));
    } else lines.push(t``);
    return [...lines, ...bottom];
  }

  invalidate(): void {
    this.feedback.invalidate();
    this.plan.invalidate();
  }

  /** Closes the panel if its question was answered or cancelled elsewhere (e.g. the turn was cancelled). */
  checkStillPending(): void {
    if (!this.done && !this.request.isPending) this.finish(trustedLiteral('closed without an answer'));
  }

  /** Scroll keys move the plan's window; true when `data` was one. */
  private scroll(data: string): boolean {
    const page = Math.max(1, this.windowRows - 1);
    const last = Math.max(0, this.planRows - this.windowRows);
    let top: number;
    if (matchesKey(data, 'pageDown')) top = this.top + page;
    else if (matchesKey(data, 'pageUp')) top = this.top - page;
    else if (matchesKey(data, 'shift+down')) top = this.top + 1;
    else if (matchesKey(data, 'shift+up')) top = this.top - 1;
    else if (!this.revising && matchesKey(data, 'home')) top = 0;
    else if (!this.revising && matchesKey(data, 'end')) top = last;
    else return false;
    this.top = Math.max(0, Math.min(last, top));
    return true;
  }

  private choose(index: number): void {
    const choice = this.choices[index];
    if (!choice) return;
    if (index === this.choices.length - 1) {
      this.revising = true;
      return;
    }
    this.answer(choice.label, sanitizeForTerminal(choice.label));
  }

  private answer(answer: string, outcome: TerminalSafe): void {
    this.request.resolve({ [this.item.question]: answer });
    this.finish(outcome);
  }

  private dismiss(): void {
    this.request.resolve({});
    this.finish(trustedLiteral('closed without an answer (plan mode stays on)'));
  }

  private finish(outcome: TerminalSafe): void {
    if (this.done) return;
    this.done = true;
    this.plan.answered(this.style.dim(outcome));
    this.onDone();
  }
}
