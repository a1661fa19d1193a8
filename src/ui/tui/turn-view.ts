import { assertNever } from '../../util/assert-never.js';
import { revealInvisible } from '../../util/reveal-invisible.js';
import { type TerminalSafe, terminalText as t } from '../../util/sanitize-terminal.js';
import { subagentStepUsage, type TokenCounts } from '../../util/token-cost.js';
import type { StatusUpdate, UserInput, WireEvent, WireEventOf } from '../../wire/events.js';
import type { WireMessage } from '../../wire/message.js';
import type { ApprovalRequest, QuestionRequest } from '../../wire/requests.js';
import { userInputText } from '../../wire/user-input-text.js';
import { goalLineText } from '../common/goal-line.js';
import { scheduleLineText } from '../common/schedule-line.js';
import { AnswerView } from './answer-view.js';
import { NestedAgentsView } from './nested-agents-view.js';
import { NoteView } from './note-view.js';
import { PlanView } from './plan-view.js';
import type { SafeComponent } from './safe-component.js';
import { sanitizeForTerminal } from './sanitize-for-terminal.js';
import { type ThinkingDisplay, ThinkingView } from './thinking-view.js';
import { ToolCallView } from './tool-call-view.js';
import type { TuiStyle } from './tui-style.js';

export interface TurnViewOptions {
  style: TuiStyle;
  workDir: string;
  thinking: ThinkingDisplay;
  /** A status change (context use, tokens, plan mode) for the status line. */
  onStatus?: ((status: StatusUpdate) => void) | undefined;
  /** A subagent's step spent tokens (the status line's totals count them; not its context). */
  onSubagentUsage?: ((usage: TokenCounts) => void) | undefined;
  /** The session's goal changed (the status line's goal part). */
  onGoal?: ((goal: WireEventOf<'GoalUpdated'>['payload']) => void) | undefined;
  /**
   * A question for the user; the TUI shows its panel. `plan` is the plan ExitPlanMode showed just
   * before asking about it (its panel shows the plan with the question).
   */
  onRequest?: ((request: ApprovalRequest | QuestionRequest, plan?: PlanView) => void) | undefined;
}

/**
 * One turn as the user sees it, built from the turn's raw wire messages: the prompt, thinking, the
 * answer as Markdown, tool calls live, retries, compaction, notifications. Every message kind has its
 * case (a new kind is a compile error here). Also used for a subagent's events, nested under its call.
 */
export class TurnView implements SafeComponent {
  private lastGoalLine = '';
  /** The next TurnBegin is a scheduled prompt's. */
  private scheduledNext = false;
  private readonly parts: SafeComponent[] = [];
  /** Where the current step's output starts: a retried step's partial output is removed. */
  private stepStart = 0;
  private answer: AnswerView | null = null;
  private thinking: ThinkingView | null = null;
  /** The call whose arguments are streaming now. */
  private streamingCall: ToolCallView | null = null;
  private readonly calls = new Map<string, ToolCallView>();
  /** The subagents each call started (one for Agent, several for AgentSwarm), by call id. */
  private readonly nestedTurns = new Map<string, NestedAgentsView<TurnView>>();
  /** The plan shown last, until the question about it comes (ExitPlanMode asks right after it). */
  private shownPlan: PlanView | null = null;
  /** Steer texts shown when they were sent, not again when their SteerInput arrives. */
  private readonly steersShown: TerminalSafe[] = [];

  constructor(private readonly options: TurnViewOptions) {}

  /** The call whose result came last, if any (Ctrl-E expands it). */
  lastFinishedCall: ToolCallView | null = null;

  /** Subagents (their Agent calls) still running, for the status line. */
  get runningSubagents(): number {
    let count = 0;
    for (const [id, call] of this.calls) if (call.isRunning && this.nestedTurns.has(id)) count++;
    return count;
  }

  /** Whether a call is still running (the spinner needs frames). */
  get isBusy(): boolean {
    for (const call of this.calls.values()) if (call.isRunning) return true;
    return false;
  }

  handle(message: WireMessage): void {
    const { style } = this.options;
    // Only the question asked right after a plan is about that plan.
    const plan = this.shownPlan;
    if (message.type !== 'StatusUpdate') this.shownPlan = null;
    switch (message.type) {
      case 'TurnBegin': {
        // Nobody typed a scheduled prompt (the model may have written it): nothing in it stays hidden.
        const text = this.scheduledNext
          ? revealInvisible(userInputText(message.payload.user_input))
          : inputText(message.payload.user_input);
        this.scheduledNext = false;
        this.note(t`${style.accent('›')} ${style.bold(text)}`);
        return;
      }
      case 'SteerInput': {
        const text = inputText(message.payload.user_input);
        const shown = this.steersShown.indexOf(text);
        if (shown !== -1) this.steersShown.splice(shown, 1);
        else this.steered(text);
        return;
      }
      case 'TurnEnd':
        this.endStretch();
        this.abandonUnfinishedCalls();
        return;
      case 'StepBegin':
        this.endStretch();
        // A step's results all arrive before the next step begins: a call still without one never ran.
        this.abandonUnfinishedCalls();
        this.stepStart = this.parts.length;
        return;
      case 'StepInterrupted':
        // The error that interrupted the step follows as its own line: a note before it is noise.
        this.endStretch();
        return;
      case 'StepRetry': {
        // The failed attempt's partial output goes; a banner says why and when the next one starts.
        this.parts.length = this.stepStart;
        this.answer = null;
        this.thinking = null;
        this.streamingCall = null;
        const { error_type, status_code, next_attempt, max_attempts, wait_s } = message.payload;
        const why = t`${sanitizeForTerminal(error_type)}${status_code ? t` (HTTP ${status_code})` : t``}`;
        this.note(
          style.warn(
            t`\u21BB ${why}: retrying in ${sanitizeForTerminal(wait_s.toFixed(1))}s (attempt ${next_attempt} of ${max_attempts})`,
          ),
        );
        this.stepStart = this.parts.length;
        return;
      }
      case 'HookTriggered':
        return;
      case 'HookResolved':
        if (message.payload.action === 'block') {
          const reason = sanitizeForTerminal(message.payload.reason);
          this.note(
            style.warn(
              t`hook ${sanitizeForTerminal(message.payload.event)} blocked ${sanitizeForTerminal(message.payload.target)}${reason ? t`: ${reason}` : t``}`,
            ),
          );
        }
        return;
      case 'CompactionBegin':
        this.endStretch();
        this.note(style.dim('(compacting the context…)'));
        return;
      case 'CompactionEnd':
        this.note(style.dim('(context compacted)'));
        return;
      case 'MCPLoadingBegin':
      case 'MCPLoadingEnd':
        return;
      case 'StatusUpdate':
        this.options.onStatus?.(message.payload);
        return;
      case 'Notification':
        this.note(
          t`${style.accent(t`[${sanitizeForTerminal(message.payload.title)}]`)} ${style.dim(sanitizeForTerminal(message.payload.body))}`,
        );
        return;
      case 'ContentPart':
        this.content(message.payload);
        return;
      case 'ToolCall': {
        this.endStretch();
        const call = new ToolCallView(
          message.payload.id,
          message.payload.function.name,
          this.options.workDir,
          style,
        );
        call.appendArguments(message.payload.function.arguments ?? '');
        this.calls.set(call.id, call);
        this.streamingCall = call;
        this.parts.push(call);
        return;
      }
      case 'ToolCallPart':
        this.streamingCall?.appendArguments(message.payload.arguments_part ?? '');
        return;
      case 'ToolResult': {
        this.streamingCall = null;
        const call = this.calls.get(message.payload.tool_call_id);
        call?.finish(message.payload.return_value);
        if (call) this.lastFinishedCall = call;
        return;
      }
      case 'ToolOutput':
        this.calls.get(message.payload.tool_call_id)?.appendOutput(message.payload.text);
        return;
      case 'ApprovalResponse':
        return;
      case 'SubagentEvent': {
        const usage = subagentStepUsage(message);
        if (usage) this.options.onSubagentUsage?.(usage);
        this.subagentEvent(
          message.payload.parent_tool_call_id,
          message.payload.agent_id,
          message.payload.event,
        );
        return;
      }
      case 'PlanDisplay': {
        this.endStretch();
        this.shownPlan = new PlanView(message.payload, style);
        this.parts.push(this.shownPlan);
        return;
      }
      // The rewind's result line is the session's own text (said before this event): not twice.
      case 'RewindDone':
        return;
      case 'GoalUpdated': {
        this.options.onGoal?.(message.payload);
        const text = goalLineText(message.payload);
        if (text !== this.lastGoalLine) this.note(style.dim(sanitizeForTerminal(text)));
        this.lastGoalLine = text;
        return;
      }
      case 'ScheduleFired':
        this.note(style.dim(sanitizeForTerminal(scheduleLineText(message.payload))));
        this.scheduledNext = true;
        return;
      case 'BtwBegin':
        this.note(t`${style.dim('(by the way)')} ${sanitizeForTerminal(message.payload.question)}`);
        return;
      case 'BtwEnd': {
        const { response, error } = message.payload;
        this.note(
          error ? style.error(t`Error: ${sanitizeForTerminal(error)}`) : sanitizeForTerminal(response ?? ''),
        );
        return;
      }
      case 'ApprovalRequest':
        this.endStretch();
        this.options.onRequest?.(message);
        return;
      case 'QuestionRequest':
        this.endStretch();
        this.options.onRequest?.(message, plan ?? undefined);
        return;
      case 'ToolCallRequest':
      case 'HookRequest':
        message.cancel('Not supported in the terminal UI.');
        return;
      default:
        assertNever(message);
    }
  }

  render(width: number): TerminalSafe[] {
    const lines: TerminalSafe[] = [];
    for (const part of this.parts) {
      const rendered = part.render(width);
      if (rendered.length > 0 && lines.length > 0 && !(part instanceof ThinkingView)) lines.push(t``);
      lines.push(...rendered);
    }
    return lines;
  }

  invalidate(): void {
    for (const part of this.parts) part.invalidate();
  }

  /** Shows input the user steered the running turn with (it reaches the model after this step). */
  steer(text: string): void {
    const safe = sanitizeForTerminal(text);
    this.steersShown.push(safe);
    this.steered(safe);
  }

  private steered(safeText: TerminalSafe): void {
    const { style } = this.options;
    this.note(t`${style.accent('›')} ${style.dim('(steer)')} ${safeText}`);
  }

  /** Adds a part of the caller's own (e.g. a command's output). */
  add(part: SafeComponent): void {
    this.endStretch();
    this.parts.push(part);
  }

  /** Adds a line of styled, already sanitised text. */
  note(text: TerminalSafe): void {
    this.parts.push(new NoteView(text));
  }

  private content(part: Extract<WireEvent, { type: 'ContentPart' }>['payload']): void {
    switch (part.type) {
      case 'text':
        if (!part.text) return;
        this.thinking?.fold();
        this.thinking = null;
        this.streamingCall = null;
        if (!this.answer) {
          this.answer = new AnswerView(this.options.style);
          this.parts.push(this.answer);
        }
        this.answer.append(part.text);
        return;
      case 'think':
        if (!part.think) return;
        if (!this.thinking) {
          this.answer = null;
          this.thinking = new ThinkingView(this.options.style, this.options.thinking);
          this.parts.push(this.thinking);
        }
        this.thinking.append(part.think);
        return;
      case 'image_url':
      case 'audio_url':
      case 'video_url':
        this.note(this.options.style.dim(t`[${sanitizeForTerminal(part.type.replace('_url', ''))}]`));
        return;
      default:
        assertNever(part);
    }
  }

  private subagentEvent(parentCallId: string | null, agentId: string | null, event: WireEvent): void {
    const call = parentCallId ? this.calls.get(parentCallId) : undefined;
    if (!call || !parentCallId) return;
    let nested = this.nestedTurns.get(parentCallId);
    if (!nested) {
      nested = new NestedAgentsView(
        this.options.style,
        // The nested view's own SubagentEvents were counted here already (unwrapped whole).
        () =>
          new TurnView({
            ...this.options,
            onStatus: undefined,
            onSubagentUsage: undefined,
            onRequest: undefined,
          }),
      );
      this.nestedTurns.set(parentCallId, nested);
      call.nested = nested;
    }
    if (event.type !== 'TurnBegin') nested.viewFor(agentId ?? '').handle(event);
  }

  private abandonUnfinishedCalls(): void {
    this.streamingCall = null;
    for (const call of this.calls.values()) if (call.isRunning) call.abandon();
  }

  /** Ends the open stretch of thinking or answer text: what comes next starts a part of its own. */
  private endStretch(): void {
    this.thinking?.fold();
    this.thinking = null;
    this.answer = null;
  }
}

function inputText(input: UserInput): TerminalSafe {
  return sanitizeForTerminal(userInputText(input));
}
