import { randomUUID } from 'node:crypto';
import type { Config } from '../config/schema.js';
import type { HookEngineRuntime } from '../hooks/engine.js';
import type { HookEvent } from '../hooks/types.js';
import type { AskClient, WireHookSubscription } from '../hooks/wire-subscriptions.js';
import type { SandboxStatus } from '../policy/sandbox.js';
import type { SecretRegistry } from '../policy/secrets.js';
import type { Session } from '../session/session.js';
import { setStateFence } from '../session/state.js';
import type { Context } from '../soul/context/context.js';
import type { ModelSelection, ModelSwitched } from '../soul/model-switcher.js';
import { runSoul, type UILoop } from '../soul/run-soul.js';
import type { SlashCommandRegistry } from '../soul/slash-commands.js';
import type { RunOptions, Soul } from '../soul/soul.js';
import type { UserInput } from '../soul/steer-queue.js';
import type { TurnOutcome } from '../soul/turn-outcome.js';
import type { CronBook } from '../tools/cron/cron-book.js';
import type { CronClock } from '../tools/cron/cron-scheduler.js';
import type { GoalBook, GoalRunEnd } from '../tools/goal/goal-book.js';
import type { Approval } from '../toolset/approval/approval.js';
import { bridgeApprovalsToWire } from '../toolset/approval/approval-wire-bridge.js';
import type { KimiToolset } from '../toolset/kimi-toolset.js';
import type { KimiTool } from '../toolset/tool-definition.js';
import type { WriteFence } from '../util/write-fence.js';
import type { WireMessage } from '../wire/message.js';
import type {
  AgentSession,
  BackgroundWork,
  ModelChoice,
  SessionModes,
  SlashCommandInfo,
} from './agent-session.js';
import type { SessionContributions } from './contributions.js';
import type { ExternalToolRegistrar } from './extension.js';
import { ModelSwitchError } from './model-switch-error.js';
import type { OutOfTurnHub } from './out-of-turn-hub.js';
import type { PlanModeSwitch } from './plan-mode-switch.js';
import type { RewindTurnList } from './rewind/turn-list.js';
import { type ScheduledPrompt, ScheduledTurns } from './scheduled-turns.js';
import type { SessionModel } from './session-model.js';
import type { SessionTitle } from './session-title.js';
import type { ShutdownList } from './shutdown-list.js';
import type { SwarmDispatch, SwarmItemRan, SwarmItemRun, SwarmSlot } from './subagents/swarm-dispatch.js';
import { runSwarmItemHere } from './subagents/swarm-item-here.js';
import type { WorkspaceTrustView } from './workspace-trust.js';

/** A turn is already running in this session. */
export class TurnInProgressError extends Error {
  override name = 'TurnInProgressError';
  constructor() {
    super('An agent turn is already in progress.');
  }
}

/** Everything a session is made of, built before it (createAgentSession). */
export interface AgentSessionParts {
  session: Session;
  config: Config;
  context: Context;
  toolset: KimiToolset;
  approval: Approval;
  hooks: HookEngineRuntime;
  env: Readonly<Record<string, string | undefined>>;
  secrets?: SecretRegistry | undefined;
  /** The sandbox commands run in, null when off (no front end may run a sandboxed Shell its own way). */
  sandbox?: SandboxStatus | null | undefined;
  soul: Soul;
  /** The session's goal (absent in sessions built without one). */
  goal?: GoalBook | undefined;
  /** The session's scheduled prompts and the clock they fire by (absent in sessions built without). */
  cron?: { book: CronBook; clock: CronClock } | undefined;
  slashCommands: SlashCommandRegistry;
  model: SessionModel;
  planMode: PlanModeSwitch;
  title: SessionTitle;
  contributions: Pick<SessionContributions, 'wireNotifications' | 'backgroundWork' | 'externalTools'>;
  outOfTurn: OutOfTurnHub;
  /** Closes what the session opened (extensions' services, hooks, the context), last opened first. */
  shutdown: ShutdownList;
  skippedTools: readonly string[];
  /** The turns `/rewind` can go back to; absent when the session keeps no checkpoints. */
  rewindTurns?: (() => Promise<RewindTurnList>) | undefined;
  workspaceTrust: WorkspaceTrustView;
  /** A fleet's hand-offs of swarm items (absent in sessions built without subagents' slot). */
  swarmSlot?: SwarmSlot | undefined;
}

/** Without the external-tools extension every tool is rejected with the reason. */
const noExternalTools: ExternalToolRegistrar = (tools) => ({
  accepted: [],
  rejected: tools.map((t) => ({ name: t.name, reason: 'External tools are not supported by this session.' })),
});

/** The AgentSession of kimi-ts: one soul, its wire file, its tools and the services extensions added. */
export class AgentSessionImpl implements AgentSession {
  private busy = false;
  private readonly scheduled: ScheduledTurns | null;

  constructor(readonly parts: AgentSessionParts) {
    const { cron } = parts;
    this.scheduled = cron ? new ScheduledTurns(cron.book, cron.clock, () => this.busy) : null;
    if (this.scheduled) {
      const scheduled = this.scheduled;
      parts.shutdown.add(async () => scheduled.close());
    }
  }

  get workspaceTrust(): WorkspaceTrustView {
    return this.parts.workspaceTrust;
  }

  get sessionId(): string {
    return this.parts.session.id;
  }

  get workDir(): string {
    return this.parts.session.workDir;
  }

  get wireFile(): string {
    return this.parts.session.wireFile;
  }

  get isBusy(): boolean {
    return this.busy;
  }

  get modelName(): string | null {
    return this.parts.model.llm?.provider.modelName || null;
  }

  get hasLLM(): boolean {
    return this.parts.model.llmNotSetMessage === '';
  }

  get llmNotSetMessage(): string {
    return this.parts.model.llmNotSetMessage;
  }

  get title(): string | null {
    return this.parts.title.value;
  }

  get skippedTools(): readonly string[] {
    return this.parts.skippedTools;
  }

  /** The session's channel for requests raised between turns. */
  get outOfTurn(): OutOfTurnHub {
    return this.parts.outOfTurn;
  }

  models(): ModelChoice[] {
    return this.parts.model.list();
  }

  async rewindTurns(): Promise<RewindTurnList | null> {
    return (await this.parts.rewindTurns?.()) ?? null;
  }

  get thinking(): boolean {
    return this.parts.model.thinking;
  }

  async switchModel(alias: string, selection?: ModelSelection): Promise<ModelSwitched> {
    if (this.busy)
      throw new ModelSwitchError(alias, 'turn_running', 'Cannot switch models while a turn is running.');
    return this.parts.model.select(alias, selection);
  }

  get approval(): Approval {
    return this.parts.approval;
  }

  /** The loaded config (front ends read their display settings from it). */
  get config(): Config {
    return this.parts.config;
  }

  get toolset(): KimiToolset {
    return this.parts.toolset;
  }

  get context(): Context {
    return this.parts.context;
  }

  get slashCommands(): readonly SlashCommandInfo[] {
    return this.parts.slashCommands.list();
  }

  get planMode(): boolean {
    return this.parts.planMode.isActive;
  }

  get modes(): SessionModes {
    const { approval, sandbox } = this.parts;
    return { yolo: approval.yolo, afk: approval.afk, sandbox: sandbox ?? null };
  }

  goalRunEnd(): GoalRunEnd | null {
    return this.parts.goal?.runEnd() ?? null;
  }

  get backgroundWork(): BackgroundWork | undefined {
    return this.parts.contributions.backgroundWork;
  }

  runTurn(input: UserInput, ui: UILoop, cancel: AbortSignal): Promise<TurnOutcome> {
    return this.runSoulTurn(input, ui, cancel, {});
  }

  runSyntheticTurn(input: UserInput, ui: UILoop, cancel: AbortSignal): Promise<TurnOutcome> {
    return this.runSoulTurn(input, ui, cancel, { skipUserPromptHook: true });
  }

  private writeFence: WriteFence | null = null;

  /**
   * A check every write of the session's history (context.jsonl), event log (wire.jsonl) and state
   * (state.json) must pass first: a fleet worker's lease on the session, so one that lost it writes
   * nothing more (and one that holds it commits each write to the session store first).
   */
  setWriteFence(fence: WriteFence | null): void {
    this.writeFence = fence;
    this.context.setWriteFence(fence);
    setStateFence(this.parts.session.stateFile, fence);
  }

  /** A fleet turn hands its swarms' items out through `dispatch` (null: they run here). */
  setSwarmDispatch(dispatch: SwarmDispatch | null): void {
    if (this.parts.swarmSlot) this.parts.swarmSlot.dispatch = dispatch;
  }

  /** Runs one item of a swarm another worker's turn of this session dispatched (a fleet child job). */
  runSwarmItem(run: SwarmItemRun): Promise<SwarmItemRan> {
    return runSwarmItemHere(this.parts.swarmSlot, this.parts.approval.runtime, run);
  }

  /** Goes on with a turn on `input` whose prompt is already in the context (a fleet worker took it over). */
  resumeTurn(input: UserInput, ui: UILoop, cancel: AbortSignal): Promise<TurnOutcome> {
    return this.runSoulTurn(input, ui, cancel, {
      skipUserPromptHook: true,
      resume: true,
      goalContinuation: 'next-run',
    });
  }

  /** A fleet turn: an active goal's continuation is not run here but queued (`runGoalStep`). */
  runFleetTurn(input: UserInput, ui: UILoop, cancel: AbortSignal): Promise<TurnOutcome> {
    return this.runSoulTurn(input, ui, cancel, { goalContinuation: 'next-run' });
  }

  /** One continuation turn of the active goal (a fleet's next job); `label` is its TurnBegin input. */
  runGoalStep(label: string, ui: UILoop, cancel: AbortSignal): Promise<TurnOutcome> {
    return this.runSoulTurn(label, ui, cancel, {
      skipUserPromptHook: true,
      goalStep: true,
      goalContinuation: 'next-run',
    });
  }

  /** Whether the session's goal is active (a fleet queues its next step). */
  get hasActiveGoal(): boolean {
    return this.parts.goal?.current()?.status === 'active';
  }

  onScheduledPrompt(listener: (prompt: ScheduledPrompt) => void): () => void {
    return this.scheduled?.listen(listener) ?? (() => {});
  }

  /** The session's schedules (cron.jsonl), for a fleet worker to arm its fires; null without. */
  get cronBook(): CronBook | null {
    return this.scheduled?.book ?? null;
  }

  async runScheduledTurn(jobId: string, ui: UILoop, cancel: AbortSignal): Promise<TurnOutcome | null> {
    if (this.busy) throw new TurnInProgressError();
    const fire = this.scheduled?.claim(jobId);
    if (!fire) return null;
    return this.runSoulTurn(fire.prompt, ui, cancel, {
      scheduled: { modelInput: fire.modelInput, event: fire.event },
    });
  }

  private async runSoulTurn(
    input: UserInput,
    ui: UILoop,
    cancel: AbortSignal,
    options: RunOptions,
  ): Promise<TurnOutcome> {
    const { soul, approval } = this.parts;
    if (this.busy) throw new TurnInProgressError();
    this.busy = true;
    const source = { kind: 'foreground_turn' as const, id: randomUUID().replace(/-/g, '') };
    let outcome: TurnOutcome | undefined;
    try {
      await runSoul(
        async (signal, wire) => {
          const unbridge = bridgeApprovalsToWire(approval.runtime, {
            fallback: (message) => wire.send(message),
          });
          try {
            outcome = await soul.run(input, signal, {
              ...options,
              context: { wire, approvalSource: source },
            });
          } finally {
            approval.runtime.cancelBySource(source.kind, source.id, 'The turn ended.');
            unbridge();
          }
        },
        ui,
        cancel,
        {
          currentWire: false,
          wireFile: this.wireFile,
          recordFence: this.writeFence ?? undefined,
          redaction: this.parts.secrets,
          notifications: this.parts.contributions.wireNotifications,
        },
      );
    } catch (error) {
      // A provider's error text can quote what it was sent; it reaches terminals and clients.
      const secrets = this.parts.secrets;
      if (secrets && error instanceof Error) error.message = secrets.redact(error.message);
      throw error;
    } finally {
      this.busy = false;
      this.scheduled?.turnEnded();
    }
    if (!outcome) throw new Error('The turn ended without an outcome.');
    return outcome;
  }

  steer(input: UserInput): boolean {
    if (!this.busy) return false;
    this.parts.soul.steer(input);
    return true;
  }

  readPlan(): Promise<string | null> {
    return this.parts.planMode.readPlan();
  }

  clearPlan(): Promise<void> {
    return this.parts.planMode.clearPlan();
  }

  setPlanMode(enabled: boolean): Promise<void> {
    return this.parts.planMode.set(enabled);
  }

  registerExternalTools(
    tools: Parameters<AgentSession['registerExternalTools']>[0],
  ): ReturnType<AgentSession['registerExternalTools']> {
    return (this.parts.contributions.externalTools ?? noExternalTools)(tools);
  }

  onOutOfTurn(listener: (message: WireMessage) => void): () => void {
    return this.parts.outOfTurn.listen(listener);
  }

  setWireHookSubscriptions(subscriptions: readonly WireHookSubscription[], askClient: AskClient): void {
    this.parts.hooks.setWireSubscriptions(subscriptions, askClient);
  }

  hideTool(name: string): void {
    this.parts.toolset.hide(name);
  }

  unhideTool(name: string): void {
    this.parts.toolset.unhide(name);
  }

  replaceTool(name: string, make: (current: KimiTool) => KimiTool): boolean {
    // A sandboxed session keeps its own Shell: its commands never run anywhere but in the sandbox.
    if (name === 'Shell' && this.parts.sandbox) return false;
    return this.parts.toolset.replace(name, make);
  }

  configuredHookCounts(): Partial<Record<HookEvent, number>> {
    return this.parts.hooks.configuredCounts();
  }

  close(options: { abandonBackgroundWork?: boolean } = {}): Promise<void> {
    return this.parts.shutdown.runAll({ abandon: options.abandonBackgroundWork === true });
  }
}
