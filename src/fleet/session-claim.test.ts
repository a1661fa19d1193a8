import type { Redis } from 'ioredis';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { RedisServer } from '../../test/support/redis-server.js';
import { jobLockKey } from './fleet-keys.js';
import { parseQueueUrl } from './queue-address.js';
import { connectRedis } from './redis-connection.js';
import { claimSession, previousTurnDone } from './session-claim.js';
import { turnJobId } from './turn-job.js';
import { LeaseLost, TurnLease } from './turn-lease.js';

let server: RedisServer;
let redis: Redis;
const session = '9c8b7a6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d';
const turn1 = turnJobId(session, 1);
const turn2 = turnJobId(session, 2);

beforeEach(async () => {
  server = await RedisServer.start();
  redis = await connectRedis(parseQueueUrl(server.url), { graceMs: 1000 });
});
afterEach(async () => {
  redis.disconnect();
  await server.remove();
});

it('a session held by a live turn job is refused to another; a dead holder is taken over', async () => {
  await redis.set(jobLockKey(turn1), 'token-1');
  expect(await claimSession(redis, session, turn1)).toBeNull();
  // Turn 2 while turn 1's lock lives: refused, with the holder named.
  expect(await claimSession(redis, session, turn2)).toBe(turn1);
  // The same job again (a takeover of turn 1 after its worker died) may claim it.
  expect(await claimSession(redis, session, turn1)).toBeNull();
  // Turn 1's lock is gone (finished, or expired): turn 2 takes the session.
  await redis.del(jobLockKey(turn1));
  expect(await claimSession(redis, session, turn2)).toBeNull();
});

it('racing claims of two turns: exactly one wins', async () => {
  await Promise.all([redis.set(jobLockKey(turn1), 'a'), redis.set(jobLockKey(turn2), 'b')]);
  const results = await Promise.all([
    claimSession(redis, session, turn1),
    claimSession(redis, session, turn2),
  ]);
  expect(results.filter((r) => r === null)).toHaveLength(1);
});

it('the lease holds while holder and lock token are this worker’s, and is lost for good otherwise', async () => {
  await redis.set(jobLockKey(turn1), 'mine');
  await claimSession(redis, session, turn1);
  const lease = new TurnLease(redis, session, turn1, 'mine');
  await lease.check();
  // Another worker took the job over: BullMQ gave it a new token.
  await redis.set(jobLockKey(turn1), 'theirs');
  await expect(lease.check()).rejects.toBeInstanceOf(LeaseLost);
  await redis.set(jobLockKey(turn1), 'mine');
  await expect(lease.check()).rejects.toBeInstanceOf(LeaseLost);
  expect(lease.lost).toBe(true);
});

it('a lease cannot be confirmed without Redis: it is lost', async () => {
  await redis.set(jobLockKey(turn1), 'mine');
  await claimSession(redis, session, turn1);
  const lease = new TurnLease(redis, session, turn1, 'mine');
  await server.stop();
  await expect(lease.check()).rejects.toBeInstanceOf(LeaseLost);
});

it('turns run in order: turn 2 waits while turn 1 is queued or running', async () => {
  expect(await previousTurnDone(redis, session, 1)).toBe(true);
  expect(await previousTurnDone(redis, session, 2)).toBe(true);
  await redis.hset(`kimi-ts:turns:${turn1}`, 'data', '{}');
  expect(await previousTurnDone(redis, session, 2)).toBe(false);
  await redis.hset(`kimi-ts:turns:${turn1}`, 'finishedOn', String(Date.now()));
  expect(await previousTurnDone(redis, session, 2)).toBe(true);
});
