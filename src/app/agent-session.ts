import type { AskClient, HookEvent, WireHookSubscription } from '../hooks/index.js';
import type { JSONSchema } from '../kosong/tool.js';
import type { SandboxStatus } from '../policy/sandbox.js';
import type { GoalRunEnd } from '../tools/goal/goal-book.js';
import type { KimiTool } from '../toolset/tool-definition.js';
import type { WireMessage } from '../wire/message.js';

export type {
  ModelChoice,
  ModelSelection,
  ModelSwitched,
  ModelSwitcher,
  ModelThinking,
} from '../soul/model-switcher.js';
export type { SlashCommandInfo } from '../soul/slash-commands.js';
export type { FileChangeCounts, RewindTurn, RewindTurnList } from './rewind/turn-list.js';
export type { ScheduledPrompt } from './scheduled-turns.js';
export type { TrustSource, WorkspaceTrustView } from './workspace-trust.js';

import type { ModelChoice, ModelSelection, ModelSwitched } from '../soul/model-switcher.js';
import type { UILoop } from '../soul/run-soul.js';
import type { SlashCommandInfo } from '../soul/slash-commands.js';
import type { UserInput } from '../soul/steer-queue.js';
import type { TurnOutcome } from '../soul/turn-outcome.js';
import type { RewindTurnList } from './rewind/turn-list.js';
import type { ScheduledPrompt } from './scheduled-turns.js';
import type { WorkspaceTrustView } from './workspace-trust.js';

/** A tool a front end executes itself (wire mode `initialize.external_tools`). */
export interface ExternalToolSpec {
  name: string;
  description: string;
  parameters: JSONSchema;
}

/** What print mode needs to know about background tasks. */
export interface BackgroundWork {
  /** Tasks still running. */
  activeTaskIds(): string[];
  /** Notifications that have not reached the model yet. */
  pendingForModel(): number;
  /** Resolves when the task ends (or the timeout passes, or `signal` aborts). */
  waitForTask(id: string, timeoutMs: number, signal: AbortSignal): Promise<void>;
  /** Stops every running task; returns how many were stopped. */
  stopAll(reason: string): Promise<number>;
  /** The longest a print run waits for background tasks, in seconds. */
  readonly waitCeilingS: number;
}

/**
 * The session's modes as a status bar shows them (Kimi CLI's `StatusSnapshot` flags), read at any
 * moment: they change by slash commands (`/yolo`, `/afk`) that a front end runs as turns.
 */
export interface SessionModes {
  /** Every action is approved without asking (`--yolo`, `default_yolo`, `/yolo`). */
  readonly yolo: boolean;
  /** Away from keyboard (`--afk`, `/afk`): actions approved, questions dismissed. */
  readonly afk: boolean;
  /**
   * The command sandbox (`--sandbox`, `[sandbox] mode`): on, or wanted but unable to run here; null
   * when the person turned it off.
   */
  readonly sandbox: SandboxStatus | null;
}

/**
 * What a front end (print mode, the wire server, ACP, the shell) drives: one agent session with its
 * context, tools and wire file. Every turn runs through `runSoul`, so the front end only sees the
 * Wire: events out, requests to answer.
 */
export interface AgentSession {
  readonly sessionId: string;
  readonly workDir: string;
  /** Whether the work dir's own configuration is in force, and how a front end trusts it. */
  readonly workspaceTrust: WorkspaceTrustView;
  /** The session's wire.jsonl (for replay). */
  readonly wireFile: string;
  /**
   * Runs one turn with `ui` attached to its wire. Resolves with the outcome; rejects with
   * RunCancelled when `cancel` aborts, or with the error that ended the turn (LLMNotSet,
   * LLMNotSupported, MaxStepsReached, a ChatProviderError, ...).
   */
  runTurn(input: UserInput, ui: UILoop, cancel: AbortSignal): Promise<TurnOutcome>;
  /** Whether a turn is running now. */
  readonly isBusy: boolean;
  /** Adds input to the running turn; false when no turn is running. */
  steer(input: UserInput): boolean;
  readonly planMode: boolean;
  /** yolo, afk and the sandbox, now. */
  readonly modes: SessionModes;
  /** Switches plan mode and records a StatusUpdate in the wire file. */
  setPlanMode(enabled: boolean): Promise<void>;
  /** Slash commands the soul understands in any front end. */
  readonly slashCommands: readonly SlashCommandInfo[];
  /** Registers client-side tools; a name that collides with another tool is rejected with a reason. */
  registerExternalTools(tools: readonly ExternalToolSpec[]): {
    accepted: string[];
    rejected: { name: string; reason: string }[];
  };
  /** Lets a client answer hooks (wire mode). */
  setWireHookSubscriptions(subscriptions: readonly WireHookSubscription[], askClient: AskClient): void;
  /** Hides a tool from the model (e.g. AskUserQuestion for clients that cannot answer questions). */
  hideTool(name: string): void;
  /**
   * Shows a tool hidden by `hideTool` again (a wire client that re-initializes with more
   * capabilities). Unknown or never-hidden names are ignored.
   */
  unhideTool(name: string): void;
  /**
   * Runs the session's tool `name` another way from now on: `make` gets the current tool and returns
   * its replacement, which keeps the name (e.g. an ACP editor running Shell commands in its own
   * terminal). False when the session has no such tool.
   */
  replaceTool(name: string, make: (current: KimiTool) => KimiTool): boolean;
  /** How many configured (`[[hooks]]`) hooks listen to each event, for the wire `initialize` answer. */
  configuredHookCounts(): Partial<Record<HookEvent, number>>;
  /** The models of the config; `current` marks the one in use. */
  models(): ModelChoice[];
  /**
   * The API's name of the model in use (`kimi-k2-…`), also when only environment variables
   * (`KIMI_MODEL_NAME`, …) define it and there is no alias; null without a model.
   */
  readonly modelName: string | null;
  /** Whether the current model thinks (always, or optionally and switched on). */
  readonly thinking: boolean;
  /**
   * Uses the config's model `alias` for this session's coming turns, with thinking on or off as
   * `selection` says (kept in the session's state; saved in the config as the default only when
   * `selection.saveAsDefault`). Rejects with a ModelSwitchError while a turn runs, and with the
   * reason when the config has no such model or it is unusable.
   */
  switchModel(alias: string, selection?: ModelSelection): Promise<ModelSwitched>;
  /**
   * The turns `/rewind n` can go back to before, with their prompts and what each changed in the
   * files (the TUI's picker); null when the session keeps no checkpoints (no `/rewind`).
   */
  rewindTurns(): Promise<RewindTurnList | null>;
  /** Whether the LLM is configured; when not, `llmNotSetMessage` says how to configure it. */
  readonly hasLLM: boolean;
  readonly llmNotSetMessage: string;
  /**
   * Background tasks the session runs (absent when it has none): print mode waits for them after the
   * turn and lets the model process their results.
   */
  readonly backgroundWork?: BackgroundWork | undefined;
  /**
   * How the goal set or resumed in this process stands (complete, blocked, paused), for print
   * mode's exit code; null when no goal was touched.
   */
  goalRunEnd(): GoalRunEnd | null;
  /**
   * Listens for scheduled prompts (CronCreate, `/loop`) that are due while the session is idle; the
   * listener runs each with `runScheduledTurn`. Schedules fire only while someone listens. Returns
   * the function that stops listening.
   */
  onScheduledPrompt(listener: (prompt: ScheduledPrompt) => void): () => void;
  /**
   * Runs the scheduled prompt of job `jobId` as a turn (ScheduleFired, then a TurnBegin with the
   * prompt). Resolves with null when it is no longer due (already run, deleted); rejects with
   * TurnInProgressError while a turn runs (the fire stays due and is offered again after it).
   */
  runScheduledTurn(jobId: string, ui: UILoop, cancel: AbortSignal): Promise<TurnOutcome | null>;
  /** Runs a turn the user did not type (no UserPromptSubmit hook), e.g. to process background results. */
  runSyntheticTurn(input: UserInput, ui: UILoop, cancel: AbortSignal): Promise<TurnOutcome>;
  /**
   * Listens for what happens between turns: a background agent's ApprovalRequest (answered like one
   * raised in a turn) and the ApprovalResponse that settled it. With nobody listening such a request
   * waits, still pending, for the next turn. Returns the function that stops listening.
   */
  onOutOfTurn(listener: (message: WireMessage) => void): () => void;
  /**
   * Stops background work, closes files and MCP clients. With `abandonBackgroundWork` (the process
   * must end now: SIGTERM, the terminal closed) work a close would wait for, such as a checkpoint
   * being recorded, is stopped instead (its git killed; the store stays consistent).
   */
  close(options?: { abandonBackgroundWork?: boolean }): Promise<void>;
}
