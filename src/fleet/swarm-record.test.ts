import type { Redis } from 'ioredis';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { RedisServer } from '../../test/support/redis-server.js';
import type { DispatchedSwarm } from '../app/subagents/swarm-dispatch.js';
import { swarmRecordKey } from './fleet-keys.js';
import { parseQueueUrl } from './queue-address.js';
import { connectRedis } from './redis-connection.js';
import { readSwarmRecord, recordSwarm, type SwarmRecord, swarmKeyOf } from './swarm-record.js';

let server: RedisServer;
let redis: Redis;
const session = '9c8b7a6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d';
const job = `turn:${session}:1`;

beforeEach(async () => {
  server = await RedisServer.start();
  redis = await connectRedis(parseQueueUrl(server.url), { graceMs: 1000 });
});
afterEach(async () => {
  redis.disconnect();
  await server.remove();
});

const swarm = (items: string[], description = 'Parts'): DispatchedSwarm => ({
  description,
  subagentType: 'coder',
  model: null,
  items: items.map((item) => ({ item, prompt: `Task ${item}` })),
  isolation: 'none',
  concurrency: 4,
  parentToolCallId: 'call-1',
  signal: new AbortController().signal,
});

const record = (items: string[]): SwarmRecord => ({
  jobId: job,
  swarmId: 's0123abcd',
  description: 'Parts',
  subagentType: 'coder',
  model: null,
  isolation: 'none',
  concurrency: 4,
  toolCallId: 'call-1',
  items: items.map((item) => ({ item, prompt: `Task ${item}` })),
});

it('the same call at the same place of the same turn is the same swarm; anything else is another', () => {
  const key = swarmKeyOf(job, 3, swarm(['a', 'b']));
  expect(swarmKeyOf(job, 3, swarm(['a', 'b']))).toBe(key);
  expect(swarmKeyOf(job, 5, swarm(['a', 'b']))).not.toBe(key);
  expect(swarmKeyOf(job, 3, swarm(['a', 'c']))).not.toBe(key);
  expect(swarmKeyOf(job, 3, swarm(['b', 'a']))).not.toBe(key);
  expect(swarmKeyOf(job, 3, swarm(['a', 'b'], 'Other'))).not.toBe(key);
  expect(swarmKeyOf(`turn:${session}:2`, 3, swarm(['a', 'b']))).not.toBe(key);
  expect(key).toMatch(/^[0-9a-f]{32}$/);
});

it('a record is written once and read back checked; a hostile or oversized one reads as none', async () => {
  const key = 'a'.repeat(32);
  expect(await recordSwarm(redis, session, key, record(['a', 'b']))).toBe(true);
  // The same swarm again (a redone step racing): the first record stays.
  expect(await recordSwarm(redis, session, key, record(['x', 'y']))).toBe(false);
  expect((await readSwarmRecord(redis, session, key))?.items.map((i) => i.item)).toEqual(['a', 'b']);
  // Planted: an extra field (a work dir of its own), too many items, not JSON.
  const planted = 'b'.repeat(32);
  await redis.set(swarmRecordKey(session, planted), JSON.stringify({ ...record(['a']), workDir: '/etc' }));
  expect(await readSwarmRecord(redis, session, planted)).toBeNull();
  await redis.set(
    swarmRecordKey(session, planted),
    JSON.stringify(record(Array.from({ length: 129 }, (_, i) => `item ${i}`))),
  );
  expect(await readSwarmRecord(redis, session, planted)).toBeNull();
  await redis.set(swarmRecordKey(session, planted), 'not json');
  expect(await readSwarmRecord(redis, session, planted)).toBeNull();
  // Prompts past the bound are refused before anything is written.
  const huge = record(Array.from({ length: 20 }, (_, i) => `item ${i}`)).items.map((item) => ({
    ...item,
    prompt: 'x'.repeat(1024 * 1024),
  }));
  await expect(
    recordSwarm(redis, session, 'c'.repeat(32), { ...record(['a']), items: huge }),
  ).rejects.toThrow(/too large to hand out/);
  const one = [{ item: 'big', prompt: 'x'.repeat(1024 * 1024 + 1) }];
  await expect(recordSwarm(redis, session, 'c'.repeat(32), { ...record(['a']), items: one })).rejects.toThrow(
    /An item's prompt is too large to hand out \(over 1 MiB\)/,
  );
  expect(await redis.exists(swarmRecordKey(session, 'c'.repeat(32)))).toBe(0);
});
