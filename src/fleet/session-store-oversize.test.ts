import type { Redis } from 'ioredis';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { RedisServer } from '../../test/support/redis-server.js';
import { storedPartKey, storedSizesKey } from './fleet-keys.js';
import { parseQueueUrl } from './queue-address.js';
import { connectRedis } from './redis-connection.js';
import { MAX_STORED_BYTES, readStoredSession, StoreLimitExceeded } from './session-store.js';

/**
 * Whoever can write to Redis can plant a session's parts of any size. A worker reads a part only
 * when Redis holds no more of it than the part's bound: an oversize part is refused without being
 * sent, so a planted gigabyte cannot take the worker's memory (and every turn running on it).
 */

let server: RedisServer;
let redis: Redis;
const session = '5a4b3c2d-1e0f-4a9b-8c7d-6e5f4a3b2c1d';

beforeEach(async () => {
  server = await RedisServer.start();
  redis = await connectRedis(parseQueueUrl(server.url), { graceMs: 1000 });
});
afterEach(async () => {
  redis.disconnect();
  await server.remove();
});

/** Bytes Redis has sent to its clients so far (INFO stats). */
async function sentBytes(): Promise<number> {
  const info = await redis.info('stats');
  const match = /total_net_output_bytes:(\d+)/.exec(info);
  if (!match?.[1]) throw new Error('no total_net_output_bytes in INFO');
  return Number(match[1]);
}

it('a planted state over its bound (the sizes hash lying) is refused without being read', async () => {
  const chunk = 'x'.repeat(1024 * 1024);
  const chunks = 16;
  expect(chunks * chunk.length).toBeGreaterThan(MAX_STORED_BYTES.state);
  const key = storedPartKey(session, 'state');
  for (let i = 0; i < chunks; i++) await redis.rpush(key, chunk);
  // The sizes hash is the writer's too: it says the state is small.
  await redis.hset(storedSizesKey(session), 'state', '2');
  const before = await sentBytes();
  await expect(readStoredSession(redis, session)).rejects.toThrow(StoreLimitExceeded);
  const sent = (await sentBytes()) - before;
  expect(sent).toBeLessThan(MAX_STORED_BYTES.state);
});

it('parts within their bounds read as before, all at one instant', async () => {
  await redis.rpush(storedPartKey(session, 'context'), 'a\n', 'b\n');
  await redis.hset(storedSizesKey(session), 'context', '4');
  await redis.rpush(storedPartKey(session, 'state'), '{}');
  await redis.hset(storedSizesKey(session), 'state', '2');
  expect(await readStoredSession(redis, session)).toEqual({ context: 'a\nb\n', wire: null, state: '{}' });
  expect(await readStoredSession(redis, session, ['state'])).toEqual({
    context: null,
    wire: null,
    state: '{}',
  });
});
