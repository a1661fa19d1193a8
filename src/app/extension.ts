import type { Config } from '../config/schema.js';
import type { HookEngine } from '../hooks/types.js';
import type { McpConfigReading } from '../mcp/config.js';
import type { Session } from '../session/session.js';
import type { SessionState } from '../session/state.js';
import type { WireNotificationSource } from '../soul/run-soul.js';
import type { SlashCommand } from '../soul/slash-commands.js';
import type { DynamicInjection, LoopControl } from '../soul/soul-parts.js';
import type { Approval } from '../toolset/approval/approval.js';
import type { KimiToolset } from '../toolset/kimi-toolset.js';
import type { ToolDependencyTable } from '../toolset/loading/dependencies.js';
import type { RunContext } from '../toolset/run-scope.js';
import type { LLMNotificationSource } from '../wire/llm-notification.js';
import type { AgentSession, BackgroundWork } from './agent-session.js';
import type { AgentSpec } from './agent-spec.js';
import type { ContextFileGuard } from './context-file-guard.js';
import type { OutOfTurnHub } from './out-of-turn-hub.js';
import type { PlanModeState } from './plan-mode-state.js';
import type { SessionModel } from './session-model.js';
import type { WarningSink } from './session-warning.js';
import type { Skill } from './skills.js';
import type { SwarmSlot } from './subagents/swarm-dispatch.js';
import type { WorkspaceTrustView } from './workspace-trust.js';

/** What the plan-mode extension lends the session: the state, and the plan file of the current plan. */
export interface PlanModeHandlers {
  isActive(): boolean;
  /** The current plan file (absolute), or null before one is chosen. */
  planFilePath(): string | null;
  set(enabled: boolean): Promise<void>;
  /** The plan written so far; null without plan mode or before the plan file exists. */
  readPlan(): Promise<string | null>;
  /** Deletes the plan file (plan mode stays on). */
  clearPlan(): Promise<void>;
}

/** How wire clients' own tools get registered (`AgentSession.registerExternalTools`). */
export type ExternalToolRegistrar = AgentSession['registerExternalTools'];

/** What the session offers its extensions; each extension names the entries it uses. */
export interface SessionServices {
  session: Session;
  config: Config;
  /** state.json as the session opened. */
  state: SessionState;
  /** Plan mode's fields, read by the policy from its construction (the plan-mode extension drives them). */
  planModeState: PlanModeState;
  env: Readonly<Record<string, string | undefined>>;
  /** kimi-ts's data folder. */
  home: string;
  agentSpec: AgentSpec;
  /** The skills found for the session's work dir. */
  skills: readonly Skill[];
  /** What AGENTS.md and skill files may be read into the model's context. */
  contextFiles: ContextFileGuard;
  toolset: KimiToolset;
  approval: Approval;
  hooks: HookEngine;
  /** The root's dependency table as the tools get it, other extensions' entries included. */
  rootDeps: Readonly<ToolDependencyTable>;
  /** The session's model (current LLM, other models for subagents). */
  model: SessionModel;
  /** The root soul's `[loop_control]` (after command-line overrides). */
  loopControl: LoopControl;
  /** The session's channel for requests raised between turns (`AgentSession.onOutOfTurn`). */
  outOfTurn: OutOfTurnHub;
  /** Reports what went wrong without stopping the session. */
  warn: WarningSink;
  /** Whether the work dir's own configuration is in force (and whether kimi-ts runs git there). */
  workspaceTrust: WorkspaceTrustView;
  /** A fleet's hand-offs of swarm items (to child jobs, and from them). */
  swarmSlot: SwarmSlot;
  /**
   * The MCP config as the session read it at start (`--mcp-config-file`, else `<home>/mcp.json`, then
   * `--mcp-config` and a client's servers): the servers whose scripts the sandbox holds.
   */
  mcpConfig: McpConfigReading;
}

export type SessionServiceName = keyof SessionServices;

/** What one extension adds to the session. Every entry is optional. */
export interface ExtensionContribution {
  /** Entries for the tools to be injected with. */
  deps?: ToolDependencyTable | undefined;
  injections?: readonly DynamicInjection[] | undefined;
  /** Notifications for the model. */
  llmNotifications?: LLMNotificationSource | undefined;
  /** Notifications for the front ends, pumped while a turn runs. */
  wireNotifications?: WireNotificationSource | undefined;
  /** Awaited before the first step of every turn (e.g. MCP servers still connecting). */
  beforeFirstStep?: ((signal: AbortSignal, run: RunContext) => Promise<void>) | undefined;
  /** Runs after the agent's own tools are registered (e.g. MCP tools, judged against them for clashes). */
  afterToolsLoaded?: (() => Promise<void>) | undefined;
  /** A slash command of the extension's (available in every front end). */
  slashCommands?: readonly SlashCommand[] | undefined;
  /** Plan mode as the session and its front ends see it. */
  planMode?: PlanModeHandlers | undefined;
  /** Background tasks print mode waits for. */
  backgroundWork?: BackgroundWork | undefined;
  externalTools?: ExternalToolRegistrar | undefined;
  /** Run when the session closes (or fails to open), in reverse order of the extensions. */
  close?: (() => Promise<void>) | undefined;
}

/**
 * A piece of the app set up per session before tools load: background tasks, plan mode, MCP,
 * subagents. It receives only the services it names in `uses` and returns what it adds, so the
 * composition root stays small and each service lives in its own module.
 */
export interface Extension<K extends SessionServiceName = SessionServiceName> {
  readonly name: string;
  readonly uses: readonly K[];
  setup(services: Pick<SessionServices, K>): Promise<ExtensionContribution>;
}

/** Declares an extension; `uses` types what `setup` receives. */
export function defineExtension<const K extends SessionServiceName>(extension: Extension<K>): Extension<K> {
  return extension;
}

/** @deprecated The services an extension receives; name what you use in `Extension.uses`. */
export type ExtensionContext = SessionServices;
/** @deprecated Extensions now return an `ExtensionContribution` instead of calling a host. */
export type ExtensionHost = ExtensionContribution;
