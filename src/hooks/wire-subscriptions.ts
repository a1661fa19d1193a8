import { performance } from 'node:perf_hooks';
import { z } from 'zod';
import { builtOnFirstUse } from '../util/built-on-first-use.js';
import { HOOK_TIMEOUT_DEFAULT_S, HOOK_TIMEOUT_MAX_S, HOOK_TIMEOUT_MIN_S } from './config.js';
import { fallbackBlockReason } from './decision.js';
import { HOOK_EVENTS, type HookDecision, type HookEvent } from './types.js';

/**
 * A hook a wire client subscribed to in `initialize`; the client itself decides each trigger. Lazy:
 * made when a wire client's `initialize` is read, never in the other front ends.
 */
export const wireHookSubscriptionSchema = z.lazy(() =>
  z.object({
    id: z.string().min(1),
    event: z.enum(HOOK_EVENTS),
    matcher: z.string().default(''),
    timeout: z.number().int().min(HOOK_TIMEOUT_MIN_S).max(HOOK_TIMEOUT_MAX_S).default(HOOK_TIMEOUT_DEFAULT_S),
  }),
);

export type WireHookSubscription = z.output<typeof wireHookSubscriptionSchema>;

/** What the engine asks the client: the body of a wire `HookRequest`. */
export interface WireHookQuestion {
  subscription_id: string;
  event: HookEvent;
  target: string;
  input_data: Record<string, unknown>;
}

/** Sends a `HookRequest` to the client and resolves with its `HookResponse`. */
export type AskClient = (question: WireHookQuestion, signal: AbortSignal) => Promise<unknown>;

/** The decision part of a client's `HookResponse`; anything unreadable counts as allow. */
const wireHookAnswerSchema = builtOnFirstUse(() =>
  z.looseObject({
    action: z.enum(['allow', 'block']),
    reason: z.string().nullish(),
  }),
);

export interface WireHookResult extends HookDecision {
  durationMs: number;
  timedOut: boolean;
  aborted: boolean;
  error: string | null;
}

/**
 * Asks the client about one trigger. Never rejects: no answer within the subscription's timeout, an
 * abort, a failed request or an answer that is not `{action, reason}` all allow. The signal handed to
 * `askClient` fires on timeout and abort, so the pending request can be withdrawn.
 */
export async function askWireHook(
  askClient: AskClient,
  question: WireHookQuestion,
  timeoutMs: number,
  signal: AbortSignal | undefined,
): Promise<WireHookResult> {
  const started = performance.now();
  const controller = new AbortController();
  let timedOut = false;
  let aborted = false;
  let stop: () => void = () => {};
  const stopped = new Promise<'stopped'>((resolve) => {
    stop = () => resolve('stopped');
  });
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort(new Error('hook request timed out'));
    stop();
  }, timeoutMs);
  const onAbort = () => {
    aborted = true;
    controller.abort(signal?.reason);
    stop();
  };
  if (signal?.aborted) onAbort();
  else signal?.addEventListener('abort', onAbort, { once: true });

  const finish = (decision: HookDecision, error: string | null): WireHookResult => ({
    ...decision,
    durationMs: performance.now() - started,
    timedOut,
    aborted,
    error,
  });
  try {
    if (aborted) return finish(allow(), null);
    // Called at once (an async wrapper turns a synchronous throw into a rejection).
    const asked = (async () => askClient(question, controller.signal))();
    // A request that settles after the timeout or abort has no one left to hear it.
    asked.catch(() => {});
    const answer = await Promise.race([asked, stopped]);
    if (answer === 'stopped') return finish(allow(), null);
    const parsed = wireHookAnswerSchema().safeParse(answer);
    if (!parsed.success)
      return finish(allow(), 'the client answered with something other than {action, reason}');
    const reason = parsed.data.reason?.trim() ?? '';
    if (parsed.data.action === 'allow') return finish(allow(), null);
    return finish({ action: 'block', reason: reason || fallbackBlockReason(question.event) }, null);
  } catch (error) {
    return finish(allow(), error instanceof Error ? error.message : String(error));
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', onAbort);
  }
}

function allow(): HookDecision {
  return { action: 'allow', reason: '' };
}
