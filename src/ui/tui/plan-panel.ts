import {
  type Component,
  type Focusable,
  Input,
  matchesKey,
  truncateToWidth,
  wrapTextWithAnsi,
} from '@mariozechner/pi-tui';
import type { QuestionItem, QuestionRequest } from '../../wire/requests.js';
import { ArmDelay } from './arm-delay.js';
import type { PlanView } from './plan-view.js';
import { sanitizeForTerminal } from './sanitize-for-terminal.js';
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
export class PlanPanel implements Component, Focusable {
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
      this.finish('closed elsewhere');
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

  render(width: number): string[] {
    this.arm.markShown();
    const { style } = this;
    const item = this.item;
    const choices = this.choices;
    const bottom: string[] = [];
    const question = `${style.warn('?')} ${style.bold(sanitizeForTerminal(item.question))}`;
    bottom.push(...wrapTextWithAnsi(question, width));
    if (this.revising) {
      const ask = `  ${style.bold('What should change in the plan?')} ${style.dim('(Enter sends, Esc goes back)')}`;
      bottom.push(truncateToWidth(ask, width));
      this.feedback.focused = this.focused;
      for (const line of this.feedback.render(Math.max(1, width - 2)))
        bottom.push(truncateToWidth(`  ${line}`, width));
    } else {
      choices.forEach((choice, i) => {
        const text = `${i + 1}. ${sanitizeForTerminal(choice.label)}`;
        const description = choice.description
          ? style.dim(` — ${sanitizeForTerminal(choice.description)}`)
          : '';
        const line = i === this.selected ? `${style.accent('›')} ${style.selected(text)}` : `  ${text}`;
        bottom.push(truncateToWidth(`${line}${description}`, width));
      });
    }
    const hint = this.revising ? '  PgUp/PgDn scroll the plan' : '  ↑/↓ + Enter, or a number · Esc closes';
    bottom.push(truncateToWidth(style.dim(this.isArmed ? hint : '  …'), width));

    const planLines = this.plan.planLines(Math.max(1, width - 2));
    const fixed = 2 + 1 + bottom.length; // border and header, the scroll line, the question part
    this.windowRows = Math.max(MIN_PLAN_ROWS, this.options.rows() - RESERVED_ROWS - fixed);
    this.planRows = planLines.length;
    this.top = Math.min(this.top, Math.max(0, planLines.length - this.windowRows));
    const bar = style.border('│');
    const shown = planLines.slice(this.top, this.top + this.windowRows).map((line) => `${bar} ${line}`);
    const lines = [style.border('─'.repeat(width)), this.plan.header(width), ...shown];
    if (planLines.length > this.windowRows) {
      const last = Math.min(planLines.length, this.top + this.windowRows);
      const where = `  lines ${this.top + 1}–${last} of ${planLines.length} · PgUp/PgDn scroll`;
      lines.push(truncateToWidth(style.dim(where), width));
    } else lines.push('');
    return [...lines, ...bottom];
  }

  invalidate(): void {
    this.feedback.invalidate();
    this.plan.invalidate();
  }

  /** Closes the panel if its question was answered or cancelled elsewhere (e.g. the turn was cancelled). */
  checkStillPending(): void {
    if (!this.done && !this.request.isPending) this.finish('closed without an answer');
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

  private answer(answer: string, outcome: string): void {
    this.request.resolve({ [this.item.question]: answer });
    this.finish(outcome);
  }

  private dismiss(): void {
    this.request.resolve({});
    this.finish('closed without an answer (plan mode stays on)');
  }

  private finish(outcome: string): void {
    if (this.done) return;
    this.done = true;
    this.plan.answered(this.style.dim(outcome));
    this.onDone();
  }
}
