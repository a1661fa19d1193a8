import { type Focusable, Input, matchesKey } from '@mariozechner/pi-tui';
import { revealInvisible } from '../../util/reveal-invisible.js';
import { type TerminalSafe, terminalText as t, trustedLiteral } from '../../util/sanitize-terminal.js';
import type { QuestionAnswers, QuestionItem, QuestionRequest } from '../../wire/requests.js';
import { askingAgentLabel } from '../common/asking-agent.js';
import { ArmDelay } from './arm-delay.js';
import type { SafeComponent } from './safe-component.js';
import { sanitizeForTerminal } from './sanitize-for-terminal.js';
import { fitLine, wrapLines } from './terminal-lines.js';
import type { TuiStyle } from './tui-style.js';

/**
 * AskUserQuestion's panel, one question after another: options by ↑/↓ + Enter or number keys
 * (Space or the number toggles an option of a multi-select question, Enter confirms), the last choice
 * types an answer of one's own, Esc skips the question.
 */
export class QuestionPanel implements SafeComponent, Focusable {
  focused = false;
  private index = 0;
  private selected = 0;
  private readonly picked = new Set<number>();
  private typing = false;
  private readonly other = new Input();
  private readonly answers: QuestionAnswers = {};
  /** When the panel was first drawn: keys count from then on (a queued panel waits its turn). */
  /** Keys count from a moment after the first frame. */
  readonly arm: ArmDelay;
  private done = false;

  constructor(
    private readonly request: QuestionRequest,
    private readonly style: TuiStyle,
    private readonly onDone: () => void,
    now: () => number = Date.now,
  ) {
    this.arm = new ArmDelay(now);
    this.other.onSubmit = (text) => {
      if (text.trim()) this.answers[this.question.question] = text.trim();
      this.next();
    };
    this.other.onEscape = () => {
      this.typing = false;
    };
  }

  private get question(): QuestionItem {
    return this.request.payload.questions[this.index] as QuestionItem;
  }

  /** Options plus the free-text choice. */
  private get count(): number {
    return this.question.options.length + 1;
  }

  get isArmed(): boolean {
    return this.arm.isArmed;
  }

  handleInput(data: string): void {
    if (this.done || !this.arm.admit()) return;
    if (!this.request.isPending) {
      this.finish();
      return;
    }
    if (this.typing) {
      this.other.focused = true;
      this.other.handleInput(data);
      return;
    }
    const multi = this.question.multi_select;
    if (matchesKey(data, 'up')) this.selected = (this.selected + this.count - 1) % this.count;
    else if (matchesKey(data, 'down')) this.selected = (this.selected + 1) % this.count;
    else if (matchesKey(data, 'escape')) this.next();
    else if (matchesKey(data, 'enter')) {
      if (multi && this.selected < this.count - 1 && this.picked.size > 0) this.confirmPicked();
      else this.choose(this.selected);
    } else if (multi && matchesKey(data, 'space')) this.choose(this.selected);
    else if (/^[1-9]$/.test(data) && Number(data) <= this.count) this.choose(Number(data) - 1);
  }

  render(width: number): TerminalSafe[] {
    this.arm.markShown();
    const { style } = this;
    const item = this.question;
    const inner = Math.max(1, width - 2);
    const total = this.request.payload.questions.length;
    const lines = [style.border(t`${'\u2500'.repeat(width) as TerminalSafe}`)];
    // A subagent's question says which agent asks (its id and description are the model's text).
    const asker = askingAgentLabel(this.request.payload);
    if (asker !== null)
      lines.push(...wrapLines(style.accent(revealInvisible(sanitizeForTerminal(`${asker} asks`))), width));
    const tag = item.header ? t`${style.accent(t`[${sanitizeForTerminal(item.header)}]`)} ` : t``;
    const counter = total > 1 ? style.dim(t` (${this.index + 1}/${total})`) : t``;
    lines.push(
      ...wrapLines(
        t`${style.warn('?')} ${tag}${style.bold(sanitizeForTerminal(item.question))}${counter}`,
        width,
      ),
    );
    if (item.body)
      for (const line of wrapLines(sanitizeForTerminal(item.body), inner))
        lines.push(fitLine(t`  ${line}`, width));
    const labels = [
      ...item.options.map((o) => ({ label: o.label, description: o.description })),
      { label: item.other_label || 'Type your own answer', description: item.other_description },
    ];
    labels.forEach((option, i) => {
      const box =
        item.multi_select && i < labels.length - 1
          ? this.picked.has(i)
            ? trustedLiteral('[x] ')
            : trustedLiteral('[ ] ')
          : t``;
      const text = t`${i + 1}. ${box}${sanitizeForTerminal(option.label)}`;
      const description = option.description
        ? style.dim(t` \u2014 ${sanitizeForTerminal(option.description)}`)
        : t``;
      const line = i === this.selected ? t`${style.accent('›')} ${style.selected(text)}` : t`  ${text}`;
      lines.push(fitLine(t`${line}${description}`, width));
    });
    if (this.typing) {
      this.other.focused = this.focused;
      // pi-tui's Input draws what the person types into it, sanitised there.
      for (const line of this.other.render(inner)) lines.push(fitLine(t`  ${line as TerminalSafe}`, width));
    }
    const keys = item.multi_select
      ? trustedLiteral('Space or a number toggles, Enter confirms')
      : trustedLiteral('↑/↓ + Enter, or a number');
    lines.push(fitLine(style.dim(this.isArmed ? t`  ${keys}, Esc skips` : trustedLiteral('  …')), width));
    return lines;
  }

  invalidate(): void {
    this.other.invalidate();
  }

  checkStillPending(): void {
    if (!this.done && !this.request.isPending) this.finish();
  }

  private choose(option: number): void {
    if (option === this.count - 1) {
      this.typing = true;
      return;
    }
    if (!this.question.multi_select) {
      this.answers[this.question.question] = this.question.options[option]?.label ?? '';
      this.next();
      return;
    }
    if (this.picked.has(option)) this.picked.delete(option);
    else this.picked.add(option);
  }

  private confirmPicked(): void {
    const labels = [...this.picked].sort((a, b) => a - b).map((i) => this.question.options[i]?.label ?? '');
    this.answers[this.question.question] = labels.join(', ');
    this.next();
  }

  private next(): void {
    this.index++;
    this.selected = 0;
    this.picked.clear();
    this.typing = false;
    this.other.setValue('');
    if (this.index >= this.request.payload.questions.length) {
      this.request.resolve(this.answers);
      this.finish();
    }
  }

  private finish(): void {
    if (this.done) return;
    this.done = true;
    this.onDone();
  }
}
