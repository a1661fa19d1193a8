import { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { FLEET_PREFIX, TURN_QUEUE } from './fleet-keys.js';

/**
 * The turn queue on an open connection. Closing it leaves `redis` open. (BullMQ and ioredis are
 * imported by src/fleet/ only, which the CLI loads for its fleet commands alone.)
 */
export async function openTurnQueue(redis: Redis): Promise<Queue> {
  return new Queue(TURN_QUEUE, { connection: redis, prefix: FLEET_PREFIX });
}
