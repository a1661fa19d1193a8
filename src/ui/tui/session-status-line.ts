import type { AgentSession } from '../../app/agent-session.js';
import type { TokenCounts } from '../../util/token-cost.js';
import type { StatusUpdate, WireEventOf } from '../../wire/events.js';
import type { WireMessage } from '../../wire/message.js';
import { currentContextSize, currentModel, priceOf } from './session-model-facts.js';
import {
  JOB_IDLE,
  type ModelPrice,
  type StatusFacts,
  StatusLineView,
  withContextSize,
  withJobStarted,
  withModes,
  withStreamed,
} from './status-line.js';
import type { TuiStyle } from './tui-style.js';

/**
 * The status line of one session: the one writer of its facts. What the session knows (model, price,
 * modes, background work) is read from it when asked to refresh; what a job streams arrives as its
 * events.
 */
export class SessionStatusLine {
  /** The line itself, under the prompt editor. */
  readonly view: StatusLineView;

  constructor(
    private readonly session: AgentSession,
    style: TuiStyle,
    private readonly prices: Readonly<Record<string, ModelPrice | undefined>> | undefined,
  ) {
    this.view = new StatusLineView(style, currentModel(session));
    this.change({ price: priceOf(session, prices) });
  }

  /**
   * The modes (yolo, afk, plan, sandbox) and the counts, read from the session: a command that
   * switched a mode, or the model entering plan mode, shows at the next refresh.
   */
  refresh(runningSubagents: number): void {
    const { session } = this;
    this.view.facts = {
      ...withModes(this.view.facts, session.modes, session.planMode),
      backgroundTasks: session.backgroundWork?.activeTaskIds().length ?? 0,
      subagents: runningSubagents,
    };
  }

  /** The model, its context size and its price again (after `/model`). */
  refreshModel(): void {
    this.view.facts = {
      ...withContextSize(this.view.facts, currentContextSize(this.session)),
      model: currentModel(this.session),
      price: priceOf(this.session, this.prices),
    };
  }

  /** A turn or `!command` started: a spinner, the elapsed time and how to cancel show (a completed goal goes). */
  jobStarted(): void {
    this.view.facts = { ...withJobStarted(this.view.facts), activity: 'working… (Esc cancels)' };
  }

  /** The job ended: no spinner; the model may have changed during it. */
  jobEnded(): void {
    this.change({
      ...JOB_IDLE,
      model: currentModel(this.session),
      price: priceOf(this.session, this.prices),
    });
  }

  /** A StatusUpdate event of the running job (context, tokens, plan mode, MCP). */
  applyUpdate(update: StatusUpdate): void {
    this.view.applyStatus(update);
  }

  /** A subagent's step of the running job spent tokens: the totals count them. */
  applySubagentUsage(usage: TokenCounts): void {
    this.view.applySubagentUsage(usage);
  }

  /** The session's goal changed (a `GoalUpdated`). */
  applyGoal(payload: WireEventOf<'GoalUpdated'>['payload']): void {
    this.view.applyGoal(payload);
  }

  /** A message the running job streamed (its characters count as output tokens until its usage comes). */
  streamed(message: WireMessage): void {
    this.view.facts = withStreamed(this.view.facts, message);
  }

  /** A transient word after the badges (`press Ctrl-C again to leave`). */
  showActivity(activity: string): void {
    this.change({ activity });
  }

  /**
   * Drops what is transient ("press Ctrl-C again", the spinner) and resolves once the line was drawn
   * so (or after `timeoutMs`): the last frame stays in the terminal.
   */
  settleForExit(tui: { requestRender(): void }, timeoutMs: number): Promise<void> {
    this.change({ activity: null, runningSince: null });
    return this.view.rendered(tui, timeoutMs);
  }

  private change(facts: Partial<StatusFacts>): void {
    this.view.facts = { ...this.view.facts, ...facts };
  }
}
