import { Redis } from 'ioredis';
import type { QueueAddress } from './queue-address.js';

/** Redis cannot be reached (at start, or no more after a grace). The text names host:port only. */
export class RedisUnreachable extends Error {
  override name = 'RedisUnreachable';

  constructor(address: QueueAddress, cause: unknown) {
    super(`Cannot reach Redis at ${address.display}: ${reasonOf(cause)}.`);
  }
}

/** What went wrong, in words; never the URL (its credentials) nor a stack. */
export function reasonOf(error: unknown): string {
  const code = error instanceof Error && 'code' in error ? String(error.code) : '';
  const message = error instanceof Error ? error.message : String(error);
  if (code === 'ECONNREFUSED') return 'connection refused';
  if (code === 'ETIMEDOUT' || /timed? ?out/i.test(message)) return 'connection timed out';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return 'unknown host';
  if (code === 'ECONNRESET' || code === 'EPIPE') return 'connection lost';
  if (/WRONGPASS|NOAUTH|invalid password|AUTH/i.test(message)) return 'authentication failed';
  if (/Connection is closed|connection closed/i.test(message)) return 'connection lost';
  return 'unreachable';
}

/** The ioredis options for `address`: what BullMQ's own connections are made from too. */
export function redisOptions(address: QueueAddress): {
  host: string;
  port: number;
  db: number;
  username?: string;
  password?: string;
  tls?: object;
  connectTimeout: number;
} {
  return {
    host: address.host,
    port: address.port,
    db: address.db,
    ...(address.username ? { username: address.username } : {}),
    ...(address.password ? { password: address.password } : {}),
    ...(address.tls ? { tls: {} } : {}),
    connectTimeout: 5000,
  };
}

export interface RedisWatchOptions {
  /** How long Redis may stay away (a restart) before it counts as gone. */
  graceMs: number;
  /** Called once, when Redis has been away longer than the grace. */
  onGone?: ((error: RedisUnreachable) => void) | undefined;
}

/**
 * Connects to Redis. The first connect
 * fails fast with RedisUnreachable; a connection lost later is retried for `graceMs`, then
 * `onGone` is told and the client ends.
 */
export async function connectRedis(address: QueueAddress, options: RedisWatchOptions): Promise<Redis> {
  let ready = false;
  let awaySince: number | null = null;
  let lastError: unknown = null;
  const client = new Redis({
    ...redisOptions(address),
    lazyConnect: true,
    maxRetriesPerRequest: null,
    retryStrategy: (times) => {
      if (!ready) return null;
      awaySince ??= Date.now();
      if (Date.now() - awaySince > options.graceMs) return null;
      return Math.min(times * 100, 500);
    },
  });
  client.on('error', (error: unknown) => {
    lastError = error;
  });
  client.on('ready', () => {
    awaySince = null;
  });
  client.on('end', () => {
    if (ready) options.onGone?.(new RedisUnreachable(address, lastError ?? new Error('connection lost')));
  });
  try {
    await client.connect();
    await client.ping();
  } catch (error) {
    client.disconnect();
    // The socket's own error (refused, unknown host) says more than ioredis's "Connection is closed".
    throw new RedisUnreachable(address, lastError ?? error);
  }
  ready = true;
  return client;
}
