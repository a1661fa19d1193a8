import type { Redis } from 'ioredis';
import { CANCEL_CHANNEL, cancelFlagKey } from './fleet-keys.js';
import { wakeParkedSwarmItems } from './swarm-item-wake.js';

/** How long a cancel waits for a turn to catch it (one queued or being handed over). */
const CANCEL_FLAG_TTL_S = 600;

/**
 * Cancels the session's running turn, or its next one: a flag (which a worker that takes the turn
 * over, or takes it later, finds) plus a broadcast (which reaches the worker running it now).
 */
export async function requestCancel(redis: Redis, sessionId: string): Promise<void> {
  await redis.set(cancelFlagKey(sessionId), '1', 'EX', CANCEL_FLAG_TTL_S);
  await redis.publish(CANCEL_CHANNEL, sessionId);
  // Swarm items parked for an approval hold their turn: woken, they find the flag and end at once.
  await wakeParkedSwarmItems(redis, sessionId);
}

/** Takes the session's cancel flag: true when one was waiting (the turn must not run on). */
export async function takeCancelFlag(redis: Redis, sessionId: string): Promise<boolean> {
  return (await redis.del(cancelFlagKey(sessionId))) > 0;
}

/**
 * A worker's running turns by session, aborted when a cancel for their session is broadcast. A
 * session may have several here at once: its turn's swarm items (child jobs) run beside each other.
 */
export class TurnCancels {
  private readonly running = new Map<string, Set<AbortController>>();

  /** `subscriber` becomes a subscriber connection (it can do nothing else from now on). */
  static async listen(subscriber: Redis): Promise<TurnCancels> {
    const cancels = new TurnCancels();
    subscriber.on('message', (channel: string, sessionId: string) => {
      if (channel !== CANCEL_CHANNEL) return;
      for (const controller of cancels.running.get(sessionId) ?? []) controller.abort(new Error('Cancelled'));
    });
    await subscriber.subscribe(CANCEL_CHANNEL);
    return cancels;
  }

  /** The signal of a turn of `sessionId` starting now: aborted by `parent` or by a cancel. */
  watch(
    sessionId: string,
    parent: AbortSignal,
  ): { signal: AbortSignal; abort: () => void; done: () => void } {
    const controller = new AbortController();
    const onParent = () => controller.abort(parent.reason);
    parent.addEventListener('abort', onParent, { once: true });
    if (parent.aborted) onParent();
    const ofSession = this.running.get(sessionId) ?? new Set<AbortController>();
    ofSession.add(controller);
    this.running.set(sessionId, ofSession);
    return {
      signal: controller.signal,
      abort: () => controller.abort(new Error('Cancelled')),
      done: () => {
        parent.removeEventListener('abort', onParent);
        ofSession.delete(controller);
        if (ofSession.size === 0 && this.running.get(sessionId) === ofSession) this.running.delete(sessionId);
      },
    };
  }
}
