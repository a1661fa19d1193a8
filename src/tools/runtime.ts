/**
 * What built-in tools may be given at load time, beyond the toolset's own entries (approval,
 * toolset, descriptionVars, workDir). Tools declare these interfaces; the app (src/app/) provides
 * implementations. Declaration merging makes `toolFactory(['planMode'], ({ planMode }) => …)` typed
 * without the toolset importing any of this.
 */

import type { VideoUpload } from '../kosong/index.js';
import type { CommandSandbox } from '../policy/sandbox.js';
import type { SecretRegistry } from '../policy/secrets.js';
import type { RunContext } from '../toolset/run-scope.js';
import type { CronBook } from './cron/cron-book.js';

/** Returns the URL a `video_url` part carries for the uploaded video. */
export type VideoUploader = (video: VideoUpload, signal?: AbortSignal) => Promise<string>;

/** Todo items as stored in state.json. */
export interface TodoItem {
  title: string;
  status: 'pending' | 'in_progress' | 'done';
}

/** Per-session state the tools read and write (root: state.json; subagents: their own state). */
export interface SessionStore {
  readonly sessionId: string;
  /** The session folder (`~/.kimi-ts/sessions/<key>/<id>/`): tools may keep files under it. */
  readonly sessionDir: string;
  getTodos(): TodoItem[];
  setTodos(todos: TodoItem[]): Promise<void>;
}

/** Plan mode: while active, writes are limited to the plan file (enforced by each tool at call time). */
export interface PlanModeController {
  isActive(): boolean;
  /** The current plan file (absolute), or null outside plan mode. */
  planFilePath(): string | null;
  /** The current plan's text, or null outside plan mode or before the plan file exists. */
  readPlan(): Promise<string | null>;
  /** Turns plan mode on (creating the plan file path if needed); returns the plan file path. */
  enter(): Promise<string>;
  exit(): Promise<void>;
}

/** `[services.*]` of the config for SearchWeb / FetchURL. */
export interface WebServiceConfig {
  baseUrl: string;
  apiKey: string;
  customHeaders?: Record<string, string> | undefined;
}

export interface WebServices {
  search?: WebServiceConfig | undefined;
  fetch?: WebServiceConfig | undefined;
}

/** `[background]` of the config. */
export interface BackgroundConfig {
  maxRunningTasks: number;
  keepAliveOnExit: boolean;
  agentTaskTimeoutS: number;
  killGracePeriodMs: number;
  notificationTailLines: number;
  notificationTailChars: number;
}

/**
 * The session goal's budget as the subagents and swarm items it starts count against it (the root
 * soul counts its own steps): tokens only while a goal is active, and whether it is spent.
 */
export interface GoalBudgetMeter {
  addTokens(tokens: number): void;
  /** Why the active goal's budget is spent (within a turn), or null while it holds. */
  budgetReached(midTurn?: boolean): string | null;
}

/** The role of the runtime a tool is loaded into: the session's root agent or a subagent. */
export type AgentRole = 'root' | 'subagent';

/**
 * Where a subagent works: `none` in the session's work dir; `worktree` in a git worktree of its own
 * (from HEAD, under the agent's home), its changes committed on a branch when it ends.
 */
export type SubagentIsolation = 'worktree' | 'none';

/** What the Agent and AgentSwarm tools answer. */
export interface SubagentToolResult {
  isError: boolean;
  output: string;
  message: string;
  brief: string;
}

/** One AgentSwarm call, validated by the tool: new items (their prompts filled in) and resumes. */
export interface SwarmRunRequest {
  description: string;
  subagentType: string;
  model: string | null;
  items: readonly { item: string; prompt: string }[];
  resume: readonly { agentId: string; prompt: string }[];
  /** What the model asked for; the config's `[subagents] max_concurrency` caps it. */
  maxConcurrency: number;
  isolation: SubagentIsolation;
  parentToolCallId: string;
  signal: AbortSignal;
  /** The calling run (its wire shows the subagents' events and requests); absent: the caller's current one. */
  parentRun?: RunContext | undefined;
}

/** Runs subagents for the Agent and AgentSwarm tools (implemented by the app, which owns souls). */
export interface SubagentRunner {
  readonly types: readonly { name: string; description: string; whenToUse: string }[];
  run(request: {
    description: string;
    prompt: string;
    subagentType: string;
    model: string | null;
    resume: string | null;
    runInBackground: boolean;
    timeoutS: number | null;
    parentToolCallId: string;
    signal: AbortSignal;
    /** As for `runSwarm`. */
    parentRun?: RunContext | undefined;
    /** Default `none`. */
    isolation?: SubagentIsolation | undefined;
  }): Promise<SubagentToolResult>;
  /** Runs the swarm's subagents at once up to the cap, waits for all, and answers one report. */
  runSwarm(request: SwarmRunRequest): Promise<SubagentToolResult>;
}

declare module '../toolset/loading/dependencies.js' {
  interface ToolDependencyMap {
    /** Directories outside the work dir the user allowed (`--add-dir`); shared and mutable. */
    additionalDirs: string[];
    session: SessionStore;
    planMode: PlanModeController;
    /** Capabilities of the current model (`image_in`, `video_in`, `thinking`, …). */
    modelCapabilities: ReadonlySet<string>;
    /** Uploads a video where the current model's API takes uploads (Kimi); null: videos go inline. */
    uploadVideo: VideoUploader | null;
    webServices: WebServices;
    backgroundConfig: BackgroundConfig;
    role: AgentRole;
    /** D-Mail holder of the soul (SendDMail). */
    denwaRenji: { send(dmail: { message: string; checkpointId: number }): string | null };
    subagents: SubagentRunner;
    /** The session goal's budget (subagents count their tokens against it). */
    goalBudget: GoalBudgetMeter;
    /** The session's scheduled prompts (CronCreate, CronList, CronDelete). */
    cronBook: CronBook;
    /** Environment for child processes (Shell). */
    processEnv: Readonly<Record<string, string | undefined>>;
    /** Runs commands sandboxed (`--sandbox`); null: commands run as they are. */
    commandSandbox: CommandSandbox | null;
    /** The secrets of the session (redaction, refusing calls that carry one). */
    secrets: SecretRegistry;
  }
}
