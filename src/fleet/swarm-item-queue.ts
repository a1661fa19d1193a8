import type { Redis } from 'ioredis';
import { FLEET_PREFIX, jobKey, swarmRecordKey, TURN_QUEUE } from './fleet-keys.js';
import { openTurnQueue } from './fleet-queue.js';
import { SWARM_ITEM_JOB, swarmItemJobId } from './swarm-item-job.js';
import { turnJobId } from './turn-job.js';

/**
 * A swarm's items are queued as a window of its cap (the local swarm's `max_concurrency`, under the
 * config's): the turn queues the first ones, and each item, as it ends (before its job completes, so
 * the turn never finds its children all done while some are still to come), queues the next. A
 * counter in Redis hands out the next index, so two items ending at once queue two items.
 */
export interface SwarmWindow {
  sessionId: string;
  turn: number;
  swarmKey: string;
  items: number;
  concurrency: number;
}

function nextIndexKey(window: SwarmWindow): string {
  return `${swarmRecordKey(window.sessionId, window.swarmKey)}:next`;
}

/** How long the window's counter lives (as the swarm's record). */
const COUNTER_TTL_S = 7 * 24 * 3600;

/**
 * The turn's part: queues every item up to the window's edge whose job is not there (the first
 * ones; on a redo, the ones an item that failed before it could queue them left out).
 */
export async function queueSwarmWindow(redis: Redis, window: SwarmWindow): Promise<void> {
  const key = nextIndexKey(window);
  await redis.set(key, String(Math.min(window.concurrency, window.items)), 'EX', COUNTER_TTL_S, 'NX');
  const edge = Math.min(Number(await redis.get(key)) || window.concurrency, window.items);
  const missing: number[] = [];
  for (let index = 1; index <= edge; index++)
    if ((await redis.exists(jobKey(swarmItemJobId(window.sessionId, window.swarmKey, index)))) === 0)
      missing.push(index);
  await addItems(redis, window, missing);
}

/** An item's part, as it ends: queues the next item, if one is left. */
export async function queueNextSwarmItem(redis: Redis, window: SwarmWindow): Promise<void> {
  const next = await redis.incr(nextIndexKey(window));
  if (next <= window.items) await addItems(redis, window, [next]);
}

async function addItems(redis: Redis, window: SwarmWindow, indexes: readonly number[]): Promise<void> {
  if (indexes.length === 0) return;
  const { sessionId, turn, swarmKey } = window;
  const queue = await openTurnQueue(redis);
  try {
    await queue.addBulk(
      indexes.map((index) => ({
        name: SWARM_ITEM_JOB,
        data: { sessionId, turn, swarm: swarmKey, index },
        opts: {
          jobId: swarmItemJobId(sessionId, swarmKey, index),
          parent: { id: turnJobId(sessionId, turn), queue: `${FLEET_PREFIX}:${TURN_QUEUE}` },
          // A failed item moves to the turn's failed children: the turn still goes on.
          ignoreDependencyOnFailure: true,
        },
      })),
    );
  } finally {
    await queue.close();
  }
}
