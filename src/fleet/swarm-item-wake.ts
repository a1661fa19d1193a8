import type { Redis } from 'ioredis';
import { openTurnQueue } from './fleet-queue.js';
import { isSwarmItemJobOf } from './swarm-item-job.js';

/** How many parked jobs a cancel looks through for the session's swarm items. */
const MAX_LOOKED_AT = 10_000;

/**
 * Wakes the session's swarm items that are parked (for an approval): after a cancel, each is taken
 * at once, finds the cancel flag and ends, so the turn that waits for them ends too.
 */
export async function wakeParkedSwarmItems(redis: Redis, sessionId: string): Promise<void> {
  const queue = await openTurnQueue(redis);
  try {
    const delayed = await queue.getDelayed(0, MAX_LOOKED_AT - 1);
    for (const job of delayed)
      if (job?.id && isSwarmItemJobOf(job.id, sessionId)) await job.promote().catch(() => undefined);
  } finally {
    await queue.close();
  }
}
