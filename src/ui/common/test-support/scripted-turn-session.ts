import type { AgentSession, ExternalToolSpec, SlashCommandInfo } from '../../../app/agent-session.js';
import { OutOfTurnHub } from '../../../app/out-of-turn-hub.js';
import { WorkspaceTrust } from '../../../app/workspace-trust.js';
import type { AskClient, HookEvent, WireHookSubscription } from '../../../hooks/index.js';
import { runSoul, type UILoop } from '../../../soul/run-soul.js';
import type { UserInput } from '../../../soul/steer-queue.js';
import type { TurnOutcome } from '../../../soul/turn-outcome.js';
import { wireEvent } from '../../../wire/events.js';
import type { WireMessage } from '../../../wire/message.js';
import { appendWireMessages } from '../../../wire/wire-file.js';

/** What a scripted turn gets: its input, the cancel signal, and the steers the client sends. */
export interface ScriptedTurn {
  input: UserInput;
  signal: AbortSignal;
  /** Resolves with the next steer the client sends during this turn. */
  nextSteer(): Promise<UserInput>;
}

/** A turn's "soul": sends wire messages with wireSend, may throw the errors a real turn throws. */
export type TurnScript = (turn: ScriptedTurn) => Promise<void>;

export const BUILTIN_TOOLS = ['Shell', 'ReadFile', 'AskUserQuestion', 'EnterPlanMode', 'ExitPlanMode'];

const FINISHED: TurnOutcome = { stopReason: 'no_tool_calls', finalMessage: null, stepCount: 1 };

/**
 * An AgentSession for wire-server tests: each turn runs through the real runSoul and a real Wire
 * recorded to `wireFile`, with a test-provided script in place of the LLM-driven soul.
 */
export class ScriptedSession implements AgentSession {
  readonly sessionId = 'wire-test-session';
  readonly slashCommands: SlashCommandInfo[] = [
    { name: 'compact', description: 'Compact the context', aliases: [] },
    { name: 'clear', description: 'Clear the context', aliases: ['reset'] },
  ];
  script: TurnScript = async () => {};
  hasLLM = true;
  llmNotSetMessage = 'No model is configured: set default_model in ~/.kimi-ts/config.toml.';
  readonly hidden = new Set<string>();
  readonly externalTools: ExternalToolSpec[] = [];
  hookSubscriptions: readonly WireHookSubscription[] = [];
  askClient: AskClient | null = null;
  hookCounts: Partial<Record<HookEvent, number>> = { PreToolUse: 2, Stop: 1 };
  /** Publish here to play a background agent raising a request between turns. */
  readonly outOfTurn = new OutOfTurnHub();
  private busy = false;
  private plan = false;
  private steerWaiters: ((input: UserInput) => void)[] = [];
  private steers: UserInput[] = [];

  /** Not trusted, nothing held back (tests set `setHeldBack` to play a workspace with rules). */
  readonly workspaceTrust: WorkspaceTrust;

  constructor(
    readonly workDir: string,
    readonly wireFile: string,
  ) {
    this.workspaceTrust = new WorkspaceTrust(workDir, null, `${wireFile}.trusted-folders.json`);
  }

  onOutOfTurn(listener: (message: WireMessage) => void): () => void {
    return this.outOfTurn.listen(listener);
  }

  get isBusy(): boolean {
    return this.busy;
  }

  get planMode(): boolean {
    return this.plan;
  }

  readonly modes = { yolo: false, afk: false, sandbox: null };

  goalRunEnd(): null {
    return null;
  }

  /** Scripted sessions have no schedules. */
  onScheduledPrompt(): () => void {
    return () => {};
  }

  async runScheduledTurn(): Promise<null> {
    return null;
  }

  runSyntheticTurn(input: UserInput, ui: UILoop, cancel: AbortSignal): Promise<TurnOutcome> {
    return this.runTurn(input, ui, cancel);
  }

  async runTurn(input: UserInput, ui: UILoop, cancel: AbortSignal): Promise<TurnOutcome> {
    if (this.busy) throw new Error('ScriptedSession: a turn is already running');
    this.busy = true;
    this.steers = [];
    try {
      await runSoul(
        (signal) => this.script({ input, signal, nextSteer: () => this.nextSteer() }),
        ui,
        cancel,
        { wireFile: this.wireFile },
      );
      return FINISHED;
    } finally {
      this.busy = false;
      this.steerWaiters = [];
    }
  }

  steer(input: UserInput): boolean {
    if (!this.busy) return false;
    const waiter = this.steerWaiters.shift();
    if (waiter) waiter(input);
    else this.steers.push(input);
    return true;
  }

  async setPlanMode(enabled: boolean): Promise<void> {
    this.plan = enabled;
    await appendWireMessages(this.wireFile, [wireEvent('StatusUpdate', { plan_mode: enabled })]);
  }

  registerExternalTools(tools: readonly ExternalToolSpec[]) {
    const accepted: string[] = [];
    const rejected: { name: string; reason: string }[] = [];
    for (const tool of tools) {
      if (BUILTIN_TOOLS.includes(tool.name))
        rejected.push({ name: tool.name, reason: 'conflicts with builtin tool' });
      else {
        this.externalTools.push(tool);
        accepted.push(tool.name);
      }
    }
    return { accepted, rejected };
  }

  setWireHookSubscriptions(subscriptions: readonly WireHookSubscription[], askClient: AskClient): void {
    this.hookSubscriptions = subscriptions;
    this.askClient = askClient;
  }

  hideTool(name: string): void {
    this.hidden.add(name);
  }

  unhideTool(name: string): void {
    this.hidden.delete(name);
  }

  /** A scripted session has no models to choose from. */
  models(): [] {
    return [];
  }

  readonly thinking = false;
  readonly modelName = null;

  /** A scripted session keeps no checkpoints. */
  async rewindTurns(): Promise<null> {
    return null;
  }

  async switchModel(alias: string): Promise<never> {
    throw new Error(`No model "${alias}" here.`);
  }

  /** A scripted session has no tools of its own to replace. */
  replaceTool(): boolean {
    return false;
  }

  configuredHookCounts(): Partial<Record<HookEvent, number>> {
    return this.hookCounts;
  }

  async close(): Promise<void> {}

  private nextSteer(): Promise<UserInput> {
    const queued = this.steers.shift();
    if (queued !== undefined) return Promise.resolve(queued);
    return new Promise((resolve) => this.steerWaiters.push(resolve));
  }
}
