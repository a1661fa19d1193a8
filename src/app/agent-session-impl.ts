import { randomUUID } from 'node:crypto';
import type { Config } from '../config/schema.js';
import type { HookEngineRuntime } from '../hooks/engine.js';
import type { HookEvent } from '../hooks/types.js';
import type { AskClient, WireHookSubscription } from '../hooks/wire-subscriptions.js';
import type { SecretRegistry } from '../policy/secrets.js';
import { deleteSessionIfEmpty } from '../session/list.js';
import type { Session } from '../session/session.js';
import { updateSessionState } from '../session/state.js';
import type {
  AgentSession,
  BackgroundWork,
  ModelChoice,
  ModelSwitcher,
  SlashCommandInfo,
} from '../soul/agent-session.js';
import type { Context } from '../soul/context/context.js';
import { runSoul, type UILoop, type WireNotificationSource } from '../soul/run-soul.js';
import type { SlashCommand, SlashCommandRegistry } from '../soul/slash-commands.js';
import type { Soul } from '../soul/soul.js';
import type { DynamicInjection, LLMNotification, LLMNotificationSource } from '../soul/soul-parts.js';
import type { UserInput } from '../soul/steer-queue.js';
import type { TurnOutcome } from '../soul/turn-outcome.js';
import type { Approval } from '../toolset/approval.js';
import { runWithApprovalSource } from '../toolset/approval-source.js';
import { bridgeApprovalsToWire } from '../toolset/approval-wire-bridge.js';
import type { KimiToolset } from '../toolset/kimi-toolset.js';
import type { KimiTool } from '../toolset/tool-definition.js';
import type { Notification } from '../wire/events.js';
import { wireEvent } from '../wire/events.js';
import type { WireMessage } from '../wire/message.js';
import { appendWireMessages } from '../wire/wire-file.js';
import type { ExtensionHost, PlanModeHandlers } from './extension.js';
import { OutOfTurnHub } from './out-of-turn-hub.js';

/** A turn is already running in this session. */
export class TurnInProgressError extends Error {
  override name = 'TurnInProgressError';
  constructor() {
    super('An agent turn is already in progress.');
  }
}

interface AgentSessionParts {
  session: Session;
  config: Config;
  context: Context;
  toolset: KimiToolset;
  approval: Approval;
  hooks: HookEngineRuntime;
  env: Readonly<Record<string, string | undefined>>;
  secrets?: SecretRegistry | undefined;
  /** Commands run in the sandbox (no front end may run Shell its own way). */
  sandboxed?: boolean | undefined;
  llmNotSetMessage: string;
}

/** The AgentSession of kimi-ts: one soul, its wire file, its tools and the services extensions added. */
export class AgentSessionImpl implements AgentSession, ExtensionHost {
  readonly injections: DynamicInjection[] = [];
  title: string | null = null;
  skippedTools: string[] = [];
  private soul: Soul | null = null;
  private slashRegistry: SlashCommandRegistry | null = null;
  private readonly llmSources: LLMNotificationSource[] = [];
  private readonly wireSources: WireNotificationSource[] = [];
  private readonly waits: ((signal: AbortSignal) => Promise<void>)[] = [];
  private readonly closers: (() => Promise<void>)[] = [];
  private planHandlers: PlanModeHandlers | null = null;
  private modelSwitcher: ModelSwitcher | null = null;
  private busy = false;
  private closed = false;
  readonly outOfTurn = new OutOfTurnHub();

  constructor(readonly parts: AgentSessionParts) {}

  attachSoul(soul: Soul, slashCommands: SlashCommandRegistry): void {
    this.soul = soul;
    this.slashRegistry = slashCommands;
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

  get hasLLM(): boolean {
    return this.parts.llmNotSetMessage === '';
  }

  /** Set by createAgentSession: how models are listed and switched. */
  setModelSwitcher(switcher: ModelSwitcher): void {
    this.modelSwitcher = switcher;
  }

  models(): ModelChoice[] {
    return this.modelSwitcher?.list() ?? [];
  }

  async switchModel(alias: string): Promise<void> {
    if (this.busy) throw new Error('Cannot switch models while a turn is running.');
    if (!this.modelSwitcher) throw new Error('This session cannot switch models.');
    await this.modelSwitcher.select(alias);
  }

  /** After a model switch made a session without a model usable. */
  markLLMReady(): void {
    this.parts.llmNotSetMessage = '';
  }

  get llmNotSetMessage(): string {
    return this.parts.llmNotSetMessage;
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
    return this.slashRegistry?.list() ?? [];
  }

  get planMode(): boolean {
    return this.planHandlers?.isActive() ?? false;
  }

  /** Notifications for the model, from every source extensions registered. */
  readonly llmNotifications: LLMNotificationSource = {
    claimForLLM: async (max, signal) => {
      const out: LLMNotification[] = [];
      for (const source of this.llmSources) {
        if (out.length >= max) break;
        out.push(...(await source.claimForLLM(max - out.length, signal)));
      }
      return out;
    },
  };

  private readonly wireNotifications: WireNotificationSource = {
    drainWire: async (max, signal) => {
      const out: Notification[] = [];
      for (const source of this.wireSources) {
        if (out.length >= max) break;
        out.push(...(await source.drainWire(max - out.length, signal)));
      }
      return out;
    },
  };

  backgroundWork: BackgroundWork | undefined;

  runTurn(input: UserInput, ui: UILoop, cancel: AbortSignal): Promise<TurnOutcome> {
    return this.runSoulTurn(input, ui, cancel, {});
  }

  runSyntheticTurn(input: UserInput, ui: UILoop, cancel: AbortSignal): Promise<TurnOutcome> {
    return this.runSoulTurn(input, ui, cancel, { skipUserPromptHook: true });
  }

  private async runSoulTurn(
    input: UserInput,
    ui: UILoop,
    cancel: AbortSignal,
    options: { skipUserPromptHook?: boolean },
  ): Promise<TurnOutcome> {
    const soul = this.soul;
    if (!soul) throw new Error('The session has no soul attached.');
    if (this.busy) throw new TurnInProgressError();
    this.busy = true;
    const source = { kind: 'foreground_turn' as const, id: randomUUID().replace(/-/g, '') };
    let outcome: TurnOutcome | undefined;
    try {
      await runSoul(
        (signal) =>
          runWithApprovalSource(source, async () => {
            const unbridge = bridgeApprovalsToWire(this.parts.approval.runtime);
            try {
              outcome = await soul.run(input, signal, options);
            } finally {
              this.parts.approval.runtime.cancelBySource(source.kind, source.id, 'The turn ended.');
              unbridge();
            }
          }),
        ui,
        cancel,
        {
          wireFile: this.wireFile,
          redaction: this.parts.secrets,
          notifications: this.wireSources.length ? this.wireNotifications : undefined,
        },
      );
    } catch (error) {
      // A provider's error text can quote what it was sent; it reaches terminals and clients.
      const secrets = this.parts.secrets;
      if (secrets && error instanceof Error) error.message = secrets.redact(error.message);
      throw error;
    } finally {
      this.busy = false;
    }
    if (!outcome) throw new Error('The turn ended without an outcome.');
    return outcome;
  }

  steer(input: UserInput): boolean {
    if (!this.busy || !this.soul) return false;
    this.soul.steer(input);
    return true;
  }

  readPlan(): Promise<string | null> {
    return this.planHandlers?.readPlan() ?? Promise.resolve(null);
  }

  async clearPlan(): Promise<void> {
    await this.planHandlers?.clearPlan();
  }

  async setPlanMode(enabled: boolean): Promise<void> {
    if (this.planHandlers) await this.planHandlers.set(enabled);
    else await updateSessionState(this.parts.session.stateFile, (s) => ({ ...s, plan_mode: enabled }));
    await appendWireMessages(this.wireFile, [wireEvent('StatusUpdate', { plan_mode: enabled })]);
  }

  registerExternalTools(
    tools: Parameters<AgentSession['registerExternalTools']>[0],
  ): ReturnType<AgentSession['registerExternalTools']> {
    return this.externalToolRegistrar(tools);
  }

  setExternalToolRegistrar(registrar: AgentSession['registerExternalTools']): void {
    this.externalToolRegistrar = registrar;
  }

  /** Set by the external-tools extension; without it every tool is rejected with the reason. */
  private externalToolRegistrar: AgentSession['registerExternalTools'] = (tools) => ({
    accepted: [],
    rejected: tools.map((t) => ({
      name: t.name,
      reason: 'External tools are not supported by this session.',
    })),
  });

  onOutOfTurn(listener: (message: WireMessage) => void): () => void {
    return this.outOfTurn.listen(listener);
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
    if (name === 'Shell' && this.parts.sandboxed) return false;
    return this.parts.toolset.replace(name, make);
  }

  configuredHookCounts(): Partial<Record<HookEvent, number>> {
    return this.parts.hooks.configuredCounts();
  }

  async beforeFirstStep(signal: AbortSignal): Promise<void> {
    for (const wait of this.waits) await wait(signal);
  }

  // ExtensionHost
  addInjection(injection: DynamicInjection): void {
    this.injections.push(injection);
  }

  addLLMNotifications(source: LLMNotificationSource): void {
    this.llmSources.push(source);
  }

  addWireNotifications(source: WireNotificationSource): void {
    this.wireSources.push(source);
  }

  addBeforeFirstStep(wait: (signal: AbortSignal) => Promise<void>): void {
    this.waits.push(wait);
  }

  addCloser(close: () => Promise<void>): void {
    this.closers.push(close);
  }

  /** Slash commands extensions added; createAgentSession registers them with the built-in ones. */
  readonly extensionCommands: SlashCommand[] = [];

  addSlashCommand(command: SlashCommand): void {
    this.extensionCommands.push(command);
  }

  setBackgroundWork(work: BackgroundWork): void {
    this.backgroundWork = work;
  }

  setPlanModeHandlers(handlers: PlanModeHandlers): void {
    this.planHandlers = handlers;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const close of [...this.closers].reverse()) {
      try {
        await close();
      } catch {
        // Closing goes on: one service failing to stop must not keep the others running.
      }
    }
    await this.parts.hooks.drain(AbortSignal.timeout(5000));
    await this.parts.context.close();
    // A session nobody said anything in is not worth keeping (as Kimi CLI does): it would only
    // crowd the list and what `--continue` finds.
    await deleteSessionIfEmpty(this.parts.session).catch(() => false);
  }
}
