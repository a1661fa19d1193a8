/**
 * The contract between the hooks engine and the code that fires hooks (toolset, soul). The engine
 * (`src/hooks/`) implements `HookEngine`; callers depend only on this file.
 */

/** The 13 hook events of Kimi CLI (reference §1.10), with Claude Code's names. */
export const HOOK_EVENTS = [
  'PreToolUse',
  'PostToolUse',
  'PostToolUseFailure',
  'UserPromptSubmit',
  'Stop',
  'StopFailure',
  'SessionStart',
  'SessionEnd',
  'SubagentStart',
  'SubagentStop',
  'PreCompact',
  'PostCompact',
  'Notification',
] as const;

export type HookEvent = (typeof HOOK_EVENTS)[number];

export interface HookDecision {
  action: 'allow' | 'block';
  /** Why it blocked (stderr of an exit-2 hook, or the JSON decision's reason). */
  reason: string;
}

export interface HookTrigger {
  /** The value the hooks' `matcher` regexes are tested against (tool name, prompt, ...). */
  target: string;
  /** Event-specific payload fields; `hook_event_name`, `session_id` and `cwd` are added by the engine. */
  input: Record<string, unknown>;
  signal?: AbortSignal | undefined;
  /**
   * Where this trigger's HookTriggered / HookResolved go (the wire of the run that triggers it);
   * absent: the engine's `onEvent`.
   */
  report?: HookEventSink | undefined;
}

export interface HookEngine {
  /** Runs every matching hook (in parallel) and aggregates: block if any blocked. Never throws. */
  trigger(event: HookEvent, trigger: HookTrigger): Promise<HookDecision>;
  /** Whether any hook (configured or wire-subscribed) listens to the event; lets callers skip work. */
  hasHooksFor(event: HookEvent): boolean;
  /**
   * Triggers without making the caller wait (PostToolUse and the like). Never rejects; tracked until
   * it settles so `drain()` can wait for it.
   */
  fire(event: HookEvent, trigger: HookTrigger): Promise<HookDecision>;
  /** Waits for every fired trigger; if `signal` aborts first, the hooks still running are killed. */
  drain(signal?: AbortSignal): Promise<void>;
}

/** An engine with no hooks: every trigger allows at once. */
export const noHooks: HookEngine = {
  trigger: async () => ({ action: 'allow', reason: '' }),
  hasHooksFor: () => false,
  fire: async () => ({ action: 'allow', reason: '' }),
  drain: async () => {},
};

/**
 * What the engine reports while it works. The payload fields are those of Kimi CLI's wire events of
 * the same names, so whoever owns the wire can forward them as they are.
 */
export interface HookTriggeredEvent {
  type: 'HookTriggered';
  payload: { event: HookEvent; target: string; hook_count: number };
}

export interface HookResolvedEvent {
  type: 'HookResolved';
  payload: {
    event: HookEvent;
    target: string;
    action: 'allow' | 'block';
    reason: string;
    duration_ms: number;
  };
}

export type HookEngineEvent = HookTriggeredEvent | HookResolvedEvent;

export type HookEventSink = (event: HookEngineEvent) => void;
