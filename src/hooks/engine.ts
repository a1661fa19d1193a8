import { performance } from 'node:perf_hooks';
import type { HookConfig } from './config.js';
import type { HookEngineEvent, HookEventSink } from './events.js';
import { compileMatcher } from './matcher.js';
import { runHookCommand } from './run-hook-command.js';
import type { HookDecision, HookEngine, HookEvent, HookTrigger } from './types.js';
import { type AskClient, askWireHook, type WireHookSubscription } from './wire-subscriptions.js';

export interface HookEngineOptions {
  /** The validated `[[hooks]]` entries (see `parseHookConfigs`). */
  hooks: readonly HookConfig[];
  sessionId: string;
  /** The session's work dir: the hooks' cwd and the payload's `cwd`. */
  workDir: string;
  /** Receives `HookTriggered` / `HookResolved`; a sink that throws never changes a decision. */
  onEvent?: HookEventSink | undefined;
  /** Hooks a wire client subscribed to; ignored unless `askClient` is given too. */
  wireSubscriptions?: readonly WireHookSubscription[] | undefined;
  askClient?: AskClient | undefined;
  /** The environment of hook commands; defaults to this process's. */
  env?: NodeJS.ProcessEnv | undefined;
  /**
   * Why a command must not run now (what it names changed since the session started), or `null`.
   * A refused command is skipped (it allows) and the reason goes to `onCommandRefused`.
   */
  refuseCommand?: ((command: string) => string | null) | undefined;
  onCommandRefused?: ((reason: string) => void) | undefined;
}

export interface HookEngineRuntime extends HookEngine {
  /**
   * Triggers without making the caller wait (PostToolUse and the like). The returned promise never
   * rejects; it stays tracked until it settles, so `drain()` can wait for it at shutdown.
   */
  fire(event: HookEvent, trigger: HookTrigger): Promise<HookDecision>;
  /**
   * Waits for every fired trigger, including ones fired while draining. If `signal` aborts first, the
   * hooks still running are killed, and `drain` resolves once they are gone.
   */
  drain(signal?: AbortSignal): Promise<void>;
  /** Replaces the wire subscriptions (a wire client's `initialize`). */
  setWireSubscriptions(subscriptions: readonly WireHookSubscription[], askClient: AskClient): void;
  /**
   * How many hooks listen to each event, `[[hooks]]` entries and the wire client's subscriptions
   * together (Kimi CLI's `hooks.configured` in the wire `initialize` answer).
   */
  configuredCounts(): Partial<Record<HookEvent, number>>;
}

interface MatchableHook<T> {
  hook: T;
  event: HookEvent;
  matches: (target: string) => boolean;
}

/** Fields the engine owns in every payload; a trigger's input cannot override them. */
const ENGINE_PAYLOAD_FIELDS = new Set(['hook_event_name', 'session_id', 'cwd']);

export function createHookEngine(options: HookEngineOptions): HookEngineRuntime {
  return new CommandHookEngine(options);
}

class CommandHookEngine implements HookEngineRuntime {
  private readonly commandHooks: MatchableHook<HookConfig>[];
  private wireHooks: MatchableHook<WireHookSubscription>[] = [];
  private askClient: AskClient | undefined;
  private readonly inFlight = new Map<Promise<HookDecision>, AbortController>();

  constructor(private readonly options: HookEngineOptions) {
    // A matcher that does not compile never matches: the hook is skipped rather than failing work.
    this.commandHooks = withMatchers(options.hooks);
    if (options.askClient && options.wireSubscriptions) {
      this.setWireSubscriptions(options.wireSubscriptions, options.askClient);
    }
  }

  setWireSubscriptions(subscriptions: readonly WireHookSubscription[], askClient: AskClient): void {
    this.wireHooks = withMatchers(subscriptions);
    this.askClient = askClient;
  }

  hasHooksFor(event: HookEvent): boolean {
    return this.commandHooks.some((h) => h.event === event) || this.wireHooks.some((h) => h.event === event);
  }

  configuredCounts(): Partial<Record<HookEvent, number>> {
    const counts: Partial<Record<HookEvent, number>> = {};
    for (const { event } of [...this.options.hooks, ...this.wireHooks])
      counts[event] = (counts[event] ?? 0) + 1;
    return counts;
  }

  async trigger(event: HookEvent, trigger: HookTrigger): Promise<HookDecision> {
    try {
      return await this.run(event, trigger);
    } catch {
      // Fail open: a bug or an unserialisable payload must not block the agent.
      return { action: 'allow', reason: '' };
    }
  }

  fire(event: HookEvent, trigger: HookTrigger): Promise<HookDecision> {
    const controller = new AbortController();
    const signal = trigger.signal ? AbortSignal.any([trigger.signal, controller.signal]) : controller.signal;
    const running = this.trigger(event, { ...trigger, signal });
    this.inFlight.set(running, controller);
    void running.finally(() => this.inFlight.delete(running));
    return running;
  }

  async drain(signal?: AbortSignal): Promise<void> {
    const abortAll = () => {
      for (const controller of this.inFlight.values()) controller.abort();
    };
    signal?.addEventListener('abort', abortAll, { once: true });
    try {
      while (this.inFlight.size > 0) {
        if (signal?.aborted) abortAll();
        await Promise.all(this.inFlight.keys());
      }
    } finally {
      signal?.removeEventListener('abort', abortAll);
    }
  }

  private async run(event: HookEvent, trigger: HookTrigger): Promise<HookDecision> {
    const started = performance.now();
    const { target, signal } = trigger;
    const commands = uniqueCommands(
      this.commandHooks.filter((h) => h.event === event && h.matches(target)),
    ).filter((hook) => this.mayRun(hook.command));
    const askClient = this.askClient;
    const subscriptions = askClient
      ? this.wireHooks.filter((h) => h.event === event && h.matches(target))
      : [];
    const hookCount = commands.length + subscriptions.length;
    if (hookCount === 0) return { action: 'allow', reason: '' };

    const payload = this.payloadFor(event, trigger.input);
    const stdin = JSON.stringify(payload);
    this.emit(trigger, { type: 'HookTriggered', payload: { event, target, hook_count: hookCount } });

    const decisions: Promise<HookDecision>[] = commands.map((hook) =>
      runHookCommand({
        command: hook.command,
        event,
        stdin,
        cwd: this.options.workDir,
        timeoutMs: hook.timeout * 1000,
        signal,
        env: this.options.env,
      }),
    );
    for (const { hook } of subscriptions) {
      const question = { subscription_id: hook.id, event, target, input_data: payload };
      // `subscriptions` is only non-empty when `askClient` is set.
      decisions.push(askWireHook(askClient!, question, hook.timeout * 1000, signal));
    }
    const decision = aggregate(await Promise.all(decisions));
    this.emit(trigger, {
      type: 'HookResolved',
      payload: { event, target, ...decision, duration_ms: Math.round(performance.now() - started) },
    });
    return decision;
  }

  private mayRun(command: string): boolean {
    const refusal = this.options.refuseCommand?.(command) ?? null;
    if (refusal === null) return true;
    try {
      this.options.onCommandRefused?.(refusal);
    } catch {
      // Reporting is best effort; the hook is skipped either way.
    }
    return false;
  }

  private payloadFor(event: HookEvent, input: Record<string, unknown>): Record<string, unknown> {
    const payload: Record<string, unknown> = {
      hook_event_name: event,
      session_id: this.options.sessionId,
      cwd: this.options.workDir,
    };
    for (const [key, value] of Object.entries(input)) {
      if (!ENGINE_PAYLOAD_FIELDS.has(key)) payload[key] = value;
    }
    return payload;
  }

  private emit(trigger: HookTrigger, event: HookEngineEvent): void {
    try {
      (trigger.report ?? this.options.onEvent)?.(event);
    } catch {
      // Reporting is best effort; the decision stands either way.
    }
  }
}

function withMatchers<T extends { event: HookEvent; matcher: string }>(
  hooks: readonly T[],
): MatchableHook<T>[] {
  const matchable: MatchableHook<T>[] = [];
  for (const hook of hooks) {
    const compiled = compileMatcher(hook.matcher);
    if (compiled.ok) matchable.push({ hook, event: hook.event, matches: compiled.test });
  }
  return matchable;
}

/** Identical command strings run once per trigger; the first entry's timeout applies. */
function uniqueCommands(matched: readonly MatchableHook<HookConfig>[]): HookConfig[] {
  const byCommand = new Map<string, HookConfig>();
  for (const { hook } of matched) if (!byCommand.has(hook.command)) byCommand.set(hook.command, hook);
  return [...byCommand.values()];
}

/** Block if any hook blocked; the reasons of all blocking hooks, in config order, one per line. */
function aggregate(decisions: readonly HookDecision[]): HookDecision {
  const reasons = [...new Set(decisions.filter((d) => d.action === 'block').map((d) => d.reason))];
  if (reasons.length === 0) return { action: 'allow', reason: '' };
  return { action: 'block', reason: reasons.join('\n') };
}
