import { Redis } from 'ioredis';
import { z } from 'zod';
import { parseQueueUrl, type QueueAddress, QueueUrlError } from '../../../../fleet/queue-address.js';
import { RedisUnreachable, reasonOf, redisOptions } from '../../../../fleet/redis-connection.js';

/** The fleet a `kimi-ts web --queue URL` node shows: its Redis, and whether it is reachable now. */
export interface FleetSource {
  redis: Redis;
  address: QueueAddress;
  /** Why Redis cannot be reached now (host:port and a reason, never the URL), or null. */
  problem(): string | null;
  close(): void;
}

/** A session id from a URL names a Redis key only once it is a full UUID. */
export function isSessionId(id: string | null): id is string {
  return id !== null && z.uuid().safeParse(id).success;
}

/** How often a lost Redis is tried again (for as long as the web node runs). */
const RETRY_MS = 1000;

/**
 * Connects to the fleet's Redis. The first connect fails with a message naming host:port only; a
 * connection lost later is retried for as long as the node runs, commands failing fast meanwhile
 * (the page says so), and `log` gets one line when it goes and one when it is back.
 */
export async function openFleetSource(
  queueUrl: string,
  log: (line: string) => void,
): Promise<FleetSource | { error: string }> {
  let address: QueueAddress;
  try {
    address = parseQueueUrl(queueUrl);
  } catch (error) {
    if (error instanceof QueueUrlError) return { error: error.message };
    throw error;
  }
  let ready = false;
  let problem: string | null = null;
  let lastError: unknown = null;
  const redis = new Redis({
    ...redisOptions(address),
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    retryStrategy: () => (ready ? RETRY_MS : null),
  });
  redis.on('error', (error: unknown) => {
    lastError = error;
    if (!ready || problem !== null) return;
    problem = new RedisUnreachable(address, error).message;
    log(`kimi-ts web: ${problem} The page says so; retrying.\n`);
  });
  redis.on('close', () => {
    if (!ready || problem !== null) return;
    problem =
      lastError === null
        ? `Cannot reach Redis at ${address.display}: connection lost.`
        : new RedisUnreachable(address, lastError).message;
    log(`kimi-ts web: ${problem} The page says so; retrying.\n`);
  });
  redis.on('ready', () => {
    if (problem !== null) log(`kimi-ts web: the fleet's Redis at ${address.display} is back.\n`);
    problem = null;
  });
  try {
    await redis.connect();
    await redis.ping();
  } catch (error) {
    redis.disconnect();
    return { error: `Cannot reach Redis at ${address.display}: ${reasonOf(lastError ?? error)}.` };
  }
  ready = true;
  return {
    redis,
    address,
    problem: () => problem,
    close: () => {
      ready = false;
      redis.disconnect();
    },
  };
}
