import { type Component, type Focusable, Input, matchesKey } from '@mariozechner/pi-tui';
import type { DisplayBlock } from '../../kosong/tool.js';
import { revealInvisible } from '../../util/reveal-invisible.js';
import { type TerminalSafe, terminalText as t } from '../../util/sanitize-terminal.js';
import type { DiffDisplayBlock } from '../../wire/display.js';
import type { ApprovalAnswer, ApprovalRequest } from '../../wire/requests.js';
import { type SessionScope, sessionScopes } from './approval-scopes.js';
import { ARM_DELAY_MS, ArmDelay } from './arm-delay.js';
import { EditWindow } from './edit-window.js';
import { sanitizeForTerminal } from './sanitize-for-terminal.js';
import { fitLine, wrapLines } from './terminal-lines.js';
import type { TuiStyle } from './tui-style.js';

/**
 * Keys arriving this soon after the panel appeared are dropped: they were typed before the user could
 * see what they would answer (type-ahead never answers an approval).
 */
export const APPROVAL_ARM_DELAY_MS = ARM_DELAY_MS;

type Stage = 'choose' | 'scope' | 'feedback';

const CHOICES = [
  t`Approve once`,
  t`Approve for this session`,
  t`Reject`,
  t`Reject, and say what to do instead`,
];
/** Offered for a request of a swarm's agent (kimi-ts): the scopes, for that swarm's agents only. */
const SWARM_CHOICE = t`Approve for all agents of this swarm`;

/**
 * The approval panel: what will happen with its facts (the command, the path, the diff), and the
 * choices, picked with ↑/↓ + Enter or Kimi CLI's number keys (1 approve once, 2 approve for the
 * session — then the scope —, 3 reject, 4 reject and say what to do instead).
 */
export class ApprovalPanel implements Component, Focusable {
  focused = false;
  private stage: Stage = 'choose';
  private selected = 0;
  /** When the panel was first drawn: keys count from then on (a queued panel waits its turn). */
  /** Keys count from a moment after the first frame. */
  readonly arm: ArmDelay;
  private readonly feedback = new Input();
  private done = false;
  /** A key other than Enter was made for the panel (an arrow, a number, Esc, a stage change). */
  private touched = false;
  /** The scopes of "approve for this session" (the exact one, a command prefix, the whole action). */
  private scopes: SessionScope[];
  /** The choices: Kimi CLI's four, and for a swarm's agent "approve for all agents of this swarm". */
  private readonly choices: TerminalSafe[];
  /** The scope stage was reached from the swarm choice: nothing is saved as a rule then. */
  private forSwarm = false;
  /**
   * Where a session approval is also saved as an allow rule: the project's rules (`s` in the scope
   * stage) or the user's, for every project (`u`); at most one.
   */
  private saveRule: 'project' | 'user' | null = null;
  /** A file edit's changed lines (none for other requests), every one of them reachable. */
  private readonly edit: EditWindow;

  constructor(
    private readonly request: ApprovalRequest,
    private readonly style: TuiStyle,
    /** Called once the request is answered (or was answered elsewhere). */
    private readonly onDone: () => void,
    now: () => number = Date.now,
    /**
     * The queue's line over the request: its place among the waiting ones and the agent that asks
     * (`1 of 3 · agent coder a1b2c3d4 — …`); null when one waits and the main agent asks.
     */
    private readonly queueLine: () => string | null = () => null,
    /** The terminal's height now: a file edit's window is sized to leave the rest on screen. */
    private readonly rows: () => number = () => Number.POSITIVE_INFINITY,
  ) {
    this.arm = new ArmDelay(now);
    this.edit = new EditWindow(request.payload.display.filter(isDiffBlock), style);
    this.scopes = sessionScopes(request.payload);
    this.choices = request.payload.swarm_id ? [...CHOICES, SWARM_CHOICE] : CHOICES;
    this.feedback.onSubmit = (text) => this.answer('reject', text.trim());
    this.feedback.onEscape = () => {
      this.stage = 'choose';
    };
  }

  /** Whether Enter waits for a key made for the panel first (someone was typing when it appeared). */
  private get needsDeliberateEnter(): boolean {
    return this.arm.typedInFlight && !this.touched;
  }

  /** Whether keys answer the panel yet (false for the first moments after it appeared). */
  get isArmed(): boolean {
    return this.arm.isArmed;
  }

  handleInput(data: string): void {
    if (this.done || !this.arm.admit()) return;
    if (!this.request.isPending) {
      this.finish();
      return;
    }
    // The edit's window scrolls in every stage (in the reason's field, its own keys stay its own).
    if (this.edit.scroll(data, this.stage === 'feedback')) return;
    if (this.stage === 'feedback') {
      this.feedback.focused = true;
      this.feedback.handleInput(data);
      return;
    }
    const count = this.stage === 'choose' ? this.choices.length : this.scopes.length;
    if (matchesKey(data, 'enter')) {
      // After typing in flight, Enter picks only a choice the person moved to: it may end their line.
      if (!this.needsDeliberateEnter) this.pick(this.selected + 1);
      return;
    }
    const saves = this.stage === 'scope' && !this.forSwarm && /^[sSuU]$/.test(data);
    const picks = /^[1-9]$/.test(data) && Number(data) <= count;
    const moves = matchesKey(data, 'up') || matchesKey(data, 'down') || matchesKey(data, 'escape');
    if (!saves && !picks && !moves) {
      // Not a key of the panel: the person is typing something else. Keys wait until they stop.
      this.arm.drop();
      return;
    }
    this.touched = true;
    if (matchesKey(data, 'up')) this.selected = (this.selected + count - 1) % count;
    else if (matchesKey(data, 'down')) this.selected = (this.selected + 1) % count;
    else if (matchesKey(data, 'escape')) {
      if (this.stage === 'scope') this.back();
      else this.answer('reject');
    } else if (data === 's' || data === 'S') this.saveRule = this.saveRule === 'project' ? null : 'project';
    else if (data === 'u' || data === 'U') this.saveRule = this.saveRule === 'user' ? null : 'user';
    else this.pick(Number(data));
  }

  /** Lines as TerminalSafe: text that skipped the sanitiser does not compile here. */
  render(width: number): TerminalSafe[] {
    this.arm.markShown();
    const { style, request } = this;
    const { sender, action, description, display } = request.payload;
    const inner = Math.max(1, width - 2);
    const lines: TerminalSafe[] = [style.border(t`${'\u2500'.repeat(width) as TerminalSafe}`)];
    // Which agent asks (its name is the model's text: revealed like the rest), and the queue's count.
    const queue = this.queueLine();
    if (queue !== null)
      for (const line of wrapLines(style.accent(shown(queue)), width)) lines.push(fitLine(line, width));
    // Everything the person approves is shown: wrapped in full, blank-looking runs as markers.
    const header = t`${style.warn(t`?`)} ${style.bold(shown(sender))} wants to ${style.accent(shown(action))}`;
    // (Wrapped lines fit; fitLine only guards the terminal's width, it cuts nothing.)
    for (const line of wrapLines(header, width)) lines.push(fitLine(line, width));
    for (const line of wrapLines(shown(description), inner)) lines.push(fitLine(t`  ${line}`, width));
    for (const block of display) lines.push(...renderBlock(block, style, width));
    let bottom = this.choiceLines(width, inner);
    if (this.edit.lineCount > 0) {
      // A file edit's changed lines, in a window that leaves the rest of the panel, the prompt
      // editor and the status line on screen; the line under it says what was not shown yet.
      const fixed = lines.length + 2 + bottom.length + RESERVED_ROWS; // + its line, the blank one
      const { rows, where } = this.edit.render(width, Math.max(MIN_EDIT_ROWS, this.rows() - fixed));
      lines.push(...rows);
      if (where !== null) lines.push(where);
      // The hint names the scroll keys once the window is known to scroll (same number of lines).
      bottom = this.choiceLines(width, inner);
    }
    lines.push(t``);
    return [...lines, ...bottom];
  }

  /** The lines under what is asked: the choices (or the scopes, or the reason's field) and the hint. */
  private choiceLines(width: number, inner: number): TerminalSafe[] {
    const { style } = this;
    const lines: TerminalSafe[] = [];
    if (this.stage === 'feedback') {
      const ask = t`  ${style.bold(t`What should it do instead?`)} ${style.dim(t`(Enter sends, Esc goes back)`)}`;
      lines.push(fitLine(ask, width));
      this.feedback.focused = this.focused;
      // pi-tui's Input draws what the person types into it, sanitised there.
      for (const line of this.feedback.render(inner))
        lines.push(fitLine(t`  ${line as TerminalSafe}`, width));
      // (A line either way: the panel's height does not change when the window turns out to scroll.)
      if (this.edit.lineCount > 0)
        lines.push(this.edit.scrolls ? fitLine(style.dim(t`  PgUp/PgDn scroll the edit`), width) : t``);
      return lines;
    }
    const choices = this.stage === 'choose' ? this.choices : this.scopes.map((scope) => scope.label);
    choices.forEach((choice, i) => {
      // A scope names the command: wrapped in full like the command itself.
      wrapLines(t`${i + 1}. ${choice}`, inner).forEach((text, row) => {
        const line =
          i === this.selected
            ? t`${row === 0 ? style.accent(t`\u203A`) : t` `} ${style.selected(text)}`
            : t`  ${text}`;
        lines.push(fitLine(line, width));
      });
    });
    if (this.stage === 'scope' && this.forSwarm) {
      lines.push(
        fitLine(
          style.dim(
            t`  Only the agents of this swarm, until it ends: not the main agent, not another swarm.`,
          ),
          width,
        ),
      );
    } else if (this.stage === 'scope') {
      // One session, one set of approvals: what is approved here is approved for every agent in it.
      lines.push(
        fitLine(style.dim(t`  For this session: every agent of it (subagents, swarms) included.`), width),
      );
      const box = (where: 'project' | 'user') => (this.saveRule === where ? style.accent(t`[x]`) : t`[ ]`);
      const project = t`  ${box('project')} s: also save it as an allow rule of this project ${style.dim(t`(.kimi-ts/permissions.toml)`)}`;
      const user = t`  ${box('user')} u: or as your own rule, in every project ${style.dim(t`(permissions.toml in the agent home)`)}`;
      lines.push(fitLine(project, width), fitLine(user, width));
    }
    const keys = this.needsDeliberateEnter
      ? t`  You were typing when this appeared: press a number, or \u2191/\u2193 then Enter`
      : this.stage === 'scope'
        ? t`  \u2191/\u2193 + Enter, or a number \u00B7 Esc goes back`
        : t`  \u2191/\u2193 + Enter, or a number`;
    // The edit's window scrolls: its keys are in the hint (Ctrl-E, the TUI's "show more", too).
    const hint = this.edit.scrolls ? t`${keys} \u00B7 PgDn/Ctrl-E shows more of the edit` : keys;
    lines.push(fitLine(style.dim(this.isArmed ? hint : t`  \u2026`), width));
    return lines;
  }

  invalidate(): void {
    this.feedback.invalidate();
  }

  /** Closes the panel if the request was answered or cancelled elsewhere (turn cancelled, another observer). */
  checkStillPending(): void {
    if (!this.done && !this.request.isPending) this.finish();
  }

  private pick(choice: number): void {
    if (this.stage === 'scope') {
      const scope = this.scopes[choice - 1];
      if (scope)
        this.answer('approve_for_session', '', {
          ...scope.answer,
          ...(this.saveRule && !this.forSwarm ? { save_rule: this.saveRule } : {}),
        });
      return;
    }
    switch (choice) {
      case 1:
        this.answer('approve');
        return;
      case 2:
      case 5:
        // 5 is offered only for a swarm's agent (see choices).
        this.forSwarm = choice === 5;
        this.scopes = sessionScopes(this.request.payload, this.forSwarm);
        this.stage = 'scope';
        this.selected = 0;
        return;
      case 3:
        this.answer('reject');
        return;
      case 4:
        this.stage = 'feedback';
        return;
      default:
        return;
    }
  }

  private back(): void {
    this.stage = 'choose';
    this.selected = this.forSwarm ? 4 : 1;
  }

  private answer(
    response: ApprovalAnswer['response'],
    feedback = '',
    extra: Pick<ApprovalAnswer, 'scope' | 'prefix' | 'save_rule' | 'for_swarm'> = {},
  ): void {
    this.request.resolve(response, feedback, extra);
    this.finish();
  }

  private finish(): void {
    if (this.done) return;
    this.done = true;
    this.onDone();
  }
}

/** Lines kept free under the panel for the prompt editor and the status line. */
const RESERVED_ROWS = 6;
/** The edit's window is never smaller than this, however short the terminal. */
const MIN_EDIT_ROWS = 3;

function isDiffBlock(block: DisplayBlock): block is DiffDisplayBlock {
  return block.type === 'diff' && typeof block.old_text === 'string' && typeof block.new_text === 'string';
}

/** Text for an approval: sanitised for the terminal, with invisible and blank-looking runs shown. */
function shown(text: string): TerminalSafe {
  return revealInvisible(sanitizeForTerminal(text));
}

function renderBlock(block: DisplayBlock, style: TuiStyle, width: number): TerminalSafe[] {
  const inner = Math.max(1, width - 4);
  if (block.type === 'shell' && 'command' in block && typeof block.command === 'string') {
    return wrapLines(shown(block.command), inner).map((line, i) =>
      fitLine(i === 0 ? t`  ${style.dim(t`$`)} ${style.bold(line)}` : t`    ${style.bold(line)}`, width),
    );
  }
  // A file edit's lines are in the edit's window (see EditWindow).
  if (block.type === 'brief' && 'text' in block && typeof block.text === 'string') {
    return wrapLines(shown(block.text), inner).map((line) => fitLine(t`  ${style.dim(line)}`, width));
  }
  return [];
}
