import type { Redis } from 'ioredis';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { RedisServer } from '../../test/support/redis-server.js';
import type { WireMessage } from '../wire/index.js';
import { sessionCostKey } from './fleet-keys.js';
import { parseQueueUrl } from './queue-address.js';
import { connectRedis } from './redis-connection.js';
import { readSessionCosts, SessionCostMeter } from './session-cost.js';

let server: RedisServer;
let redis: Redis;

beforeEach(async () => {
  server = await RedisServer.start();
  redis = await connectRedis(parseQueueUrl(server.url), { graceMs: 1000 });
});
afterEach(async () => {
  redis.disconnect();
  await server.remove();
});

const status = (payload: Record<string, unknown>) =>
  ({ type: 'StatusUpdate', payload }) as unknown as WireMessage;
const usage = (input: number, output: number) => ({
  token_usage: { input_other: input, output, input_cache_read: 0, input_cache_creation: 0 },
});

it("counts each step's usage at the worker's price; usage without a price makes the total n/a", async () => {
  const priced = new SessionCostMeter(redis, 'a', { input: 2, output: 10 });
  priced.offer(status(usage(100_000, 10_000)));
  priced.offer(status({ context_tokens: 5 }));
  priced.offer(status(usage(50_000, 0)));
  await priced.settled();
  const unpriced = new SessionCostMeter(redis, 'b', null);
  unpriced.offer(status(usage(10, 10)));
  await unpriced.settled();
  const costs = await readSessionCosts(redis, ['a', 'b', 'never']);
  expect(costs.get('a')).toBeCloseTo(0.4, 10);
  expect(costs.get('b')).toBeNull();
  expect(costs.get('never')).toBeNull();
});

it('a planted total that is no amount reads as n/a, never as a figure', async () => {
  await redis.hset(sessionCostKey('nan'), 'dollars', 'not-a-number');
  await redis.hset(sessionCostKey('negative'), 'dollars', '-5');
  await redis.hset(sessionCostKey('huge'), 'dollars', '1e400');
  await redis.set(sessionCostKey('wrong-type'), 'x');
  const costs = await readSessionCosts(redis, ['nan', 'negative', 'huge', 'wrong-type']);
  expect([...costs.values()]).toEqual([null, null, null, null]);
});
