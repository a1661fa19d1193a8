import type { Config } from '../config/schema.js';
import type { HookEngine } from '../hooks/types.js';
import type { Session } from '../session/session.js';
import type { SessionState } from '../session/state.js';
import type { WireNotificationSource } from '../soul/run-soul.js';
import type { SlashCommand } from '../soul/slash-commands.js';
import type { DynamicInjection, LLMNotificationSource, LoopControl, SoulLLM } from '../soul/soul-parts.js';
import type { Approval } from '../toolset/approval.js';
import type { ToolDependencyTable } from '../toolset/dependencies.js';
import type { KimiToolset } from '../toolset/kimi-toolset.js';
import type { AgentSession } from './agent-session.js';
import type { AgentSpec } from './agent-spec.js';
import type { OutOfTurnHub } from './out-of-turn-hub.js';
import type { Skill } from './skills.js';

/** What the plan-mode extension lends the session: the state, and the plan file of the current plan. */
export interface PlanModeHandlers {
  isActive(): boolean;
  set(enabled: boolean): Promise<void>;
  /** The plan written so far; null without plan mode or before the plan file exists. */
  readPlan(): Promise<string | null>;
  /** Deletes the plan file (plan mode stays on). */
  clearPlan(): Promise<void>;
}

/** What an extension can plug into the session it is set up in. */
export interface ExtensionHost {
  addInjection(injection: DynamicInjection): void;
  addLLMNotifications(source: LLMNotificationSource): void;
  addWireNotifications(source: WireNotificationSource): void;
  /** Awaited before the first step of every turn (e.g. MCP servers still connecting). */
  addBeforeFirstStep(wait: (signal: AbortSignal) => Promise<void>): void;
  /** Run when the session closes, in reverse order of registration. */
  addCloser(close: () => Promise<void>): void;
  /** Plan mode as the session and its front ends see it. */
  setPlanModeHandlers(handlers: PlanModeHandlers): void;
  /** A slash command of the extension's (available in every front end). */
  addSlashCommand(command: SlashCommand): void;
  /** Background tasks print mode waits for. */
  setBackgroundWork(work: import('./agent-session.js').BackgroundWork): void;
  /** The session's channel for requests raised between turns (`AgentSession.onOutOfTurn`). */
  readonly outOfTurn: OutOfTurnHub;
  /** How wire clients' own tools get registered (`AgentSession.registerExternalTools`). */
  setExternalToolRegistrar(registrar: AgentSession['registerExternalTools']): void;
}

export interface ExtensionContext {
  session: Session;
  config: Config;
  state: SessionState;
  /** Add entries here for the tools to be injected with. */
  deps: ToolDependencyTable;
  toolset: KimiToolset;
  approval: Approval;
  hooks: HookEngine;
  env: Readonly<Record<string, string | undefined>>;
  home: string;
  agentSpec: AgentSpec;
  host: ExtensionHost;
  /** The root soul's model now (null when none is configured); `/model` can change it. */
  currentLLM?: (() => SoulLLM | null) | undefined;
  /** The root soul's `[loop_control]` (after command-line overrides). */
  loopControl?: LoopControl | undefined;
  /** The skills found for the session's work dir. */
  skills?: readonly Skill[] | undefined;
  /** Builds the model of a `[models.ALIAS]` table (null when it is unusable), for subagents. */
  llmForAlias?: ((alias: string) => Promise<SoulLLM | null>) | undefined;
}

/**
 * A piece of the app set up per session before tools load: background tasks, plan mode, MCP,
 * subagents. Keeps the composition root small and each service in its own module.
 */
export interface Extension {
  readonly name: string;
  setup(context: ExtensionContext): Promise<void>;
  /** Runs after the agent's own tools are registered (e.g. MCP tools, judged against them for name clashes). */
  afterToolsLoaded?(context: ExtensionContext): Promise<void>;
}
