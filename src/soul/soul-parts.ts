import type { HookEngine } from '../hooks/types.js';
import type { Message } from '../kosong/message.js';
import type { ChatProvider } from '../kosong/provider.js';
import type { Toolset } from '../kosong/tool.js';
import type { StepCall } from '../toolset/repeat/repeat-tracker.js';
import type { RunScope } from '../toolset/run-scope.js';
import type { LLMNotificationSource } from '../wire/llm-notification.js';
import type { Context } from './context/context.js';
import type { DenwaRenji } from './dmail.js';
import type { ApiErrorType } from './errors.js';
import type { ModelOrigin } from './model-origin.js';

/** The model a soul talks to. */
export type { ModelOrigin } from './model-origin.js';

export interface SoulLLM {
  provider: ChatProvider;
  /** The context window in tokens (0 or less: unknown, never compact). */
  maxContextSize: number;
  capabilities: ReadonlySet<string>;
  /** Who serves the model, for an error a person must act on (a refused key). */
  origin?: ModelOrigin | undefined;
}

/** `[loop_control]` of the config. */
export interface LoopControl {
  maxStepsPerTurn: number;
  /** Total attempts per step (the config name says retries; it counts attempts). */
  maxRetriesPerStep: number;
  reservedContextSize: number;
  compactionTriggerRatio: number;
  /** Ralph loop: extra runs of each prompt (0: off, -1: until the model says STOP). */
  maxRalphIterations?: number | undefined;
  /** How long the model may stay silent before its call is abandoned and retried (default 120 s). */
  stallTimeoutMs?: number | undefined;
}

export const DEFAULT_LOOP_CONTROL: LoopControl = {
  maxStepsPerTurn: 1000,
  maxRetriesPerStep: 3,
  reservedContextSize: 50_000,
  compactionTriggerRatio: 0.85,
  maxRalphIterations: 0,
};

/** The toolset as the loop uses it: kosong's contract plus the repeat-detection bookkeeping. */
export interface SoulToolset extends Toolset {
  beginStep(previousCalls: readonly StepCall[]): void;
  endStep(): StepCall[];
  readonly forceStopTurn: boolean;
  /** The run context its tool calls read (a KimiToolset's); the soul enters it for each run. */
  readonly runScope?: RunScope | undefined;
}

/** Text injected before a step as a system reminder (plan mode, afk), or null for nothing. */
export interface DynamicInjection {
  readonly name: string;
  inject(view: { history: readonly Message[]; stepNo: number }): string | null | Promise<string | null>;
  /** Called after compaction removed earlier reminders from the history. */
  onCompacted?(): void;
}

/**
 * Everything a soul's turn and step work with. Mutable fields (`lastToolCalls`) are the loop's own
 * bookkeeping between steps.
 */
export interface SoulParts {
  llm: SoulLLM | null;
  context: Context;
  toolset: SoulToolset;
  /** The soul's run context: its wire (every event goes out through `runScope.send`), its approval source. */
  runScope: RunScope;
  systemPrompt: string;
  loopControl: LoopControl;
  hooks: HookEngine;
  denwaRenji: DenwaRenji;
  /** The root soul of a session (not a subagent): it alone ends turns on rejection and reads notifications. */
  isRoot: boolean;
  injections: DynamicInjection[];
  notifications?: LLMNotificationSource | undefined;
  /** Forces an OAuth refresh after a 401 (OAuth providers only). */
  refreshAuth?: (() => Promise<void>) | undefined;
  planMode?: (() => boolean) | undefined;
  /** Told each time a model's answer begins (the session starts its deferred work then). */
  onModelResponse?: (() => void) | undefined;
  /** Told the tokens each model step used (a goal counts them against its budget). */
  onStepTokens?: ((tokens: number) => void) | undefined;
  /** Tool calls of the previous step, for repeat detection. */
  lastToolCalls: StepCall[];
  onApiError?:
    | ((error: unknown, kind: { errorType: ApiErrorType; statusCode: number | null }) => void)
    | undefined;
  /** Replaces the retry backoff sleep (tests). */
  sleep?: ((ms: number, signal?: AbortSignal) => Promise<void>) | undefined;
}
