import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Redis } from 'ioredis';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { RedisServer } from '../../test/support/redis-server.js';
import { CronBook } from '../tools/cron/cron-book.js';
import { MAX_CRON_JOBS } from '../tools/cron/cron-job.js';
import { openTurnQueue } from './fleet-queue.js';
import { fleetStatus } from './fleet-status.js';
import { parseQueueUrl } from './queue-address.js';
import { connectRedis } from './redis-connection.js';
import { syncSessionSchedules } from './schedule-sync.js';
import type { TurnJob } from './turn-job.js';

/** A session's schedules made the fleet's, against a real redis-server. */

let server: RedisServer;
let redis: Redis;
let dir: string;
const sessionId = '0f1e2d3c-4b5a-4978-8695-a4b3c2d1e0f9';
const turn: TurnJob = { sessionId, turn: 1, workDir: '/tmp', prompt: 'p', yolo: false, afk: false };

beforeEach(async () => {
  server = await RedisServer.start();
  redis = await connectRedis(parseQueueUrl(server.url), { graceMs: 5000 });
  dir = await mkdtemp(join(tmpdir(), 'kimi-ts-schedule-sync-'));
});
afterEach(async () => {
  redis.disconnect();
  await server.remove();
  await rm(dir, { recursive: true, force: true });
});

it('a recurring schedule is a job scheduler, a delay a delayed fire; a deleted one loses both', async () => {
  const book = await CronBook.open(join(dir, 'cron.jsonl'));
  const every5 = book.add({
    kind: 'cron',
    cron: '*/5 * * * *',
    recurring: true,
    prompt: 'check CI',
    createdBy: 'model',
  });
  const once = book.add({ kind: 'delay', delayMs: 60_000, prompt: 'ping me', createdBy: 'user' });
  expect(await syncSessionSchedules(redis, turn, book)).toEqual([]);
  let status = await fleetStatus(redis);
  expect(status.schedules).toEqual(
    expect.arrayContaining([
      { sessionId, scheduleId: every5.id, pattern: '*/5 * * * *', next: expect.any(Number) },
      { sessionId, scheduleId: once.id, pattern: null, next: expect.any(Number) },
    ]),
  );
  expect(status.counts).toMatchObject({ delayed: 0, scheduled: 2 });
  // A fire's job comes due at its match: what the fire's turn takes as the time it came due.
  const queue = await openTurnQueue(redis);
  const [fire] = (await queue.getDelayed()).filter((job) => job.repeatJobKey);
  const [scheduler] = await queue.getJobSchedulers();
  await queue.close();
  expect(fire).toBeDefined();
  expect(fire!.timestamp + fire!.delay).toBe(scheduler?.next);
  expect(new Date(fire!.timestamp + fire!.delay).getMinutes() % 5).toBe(0);
  // Synced again (the next turn): still one of each, nothing doubled.
  await syncSessionSchedules(redis, turn, book);
  expect((await fleetStatus(redis)).schedules).toHaveLength(2);
  // The prompts stay in the session's folder: a fire names its schedule, never carries its prompt.
  const dump = await server.dump();
  expect(dump).not.toContain('check CI');
  expect(dump).not.toContain('ping me');
  book.remove(every5.id);
  book.remove(once.id);
  await syncSessionSchedules(redis, turn, book);
  status = await fleetStatus(redis);
  expect(status.schedules).toEqual([]);
  expect(status.counts).toMatchObject({ delayed: 0, scheduled: 0 });
});

it('a planted cron.jsonl of 200 schedules arms no more than the session holds (50), none with a huge prompt', async () => {
  const now = Date.now();
  const lines = Array.from({ length: 200 }, (_, n) =>
    JSON.stringify({
      op: 'add',
      job: {
        id: n.toString(16).padStart(8, '0'),
        cron: n === 0 ? '61 * * * *' : '*/5 * * * *',
        fire_at: null,
        prompt: n === 1 ? 'x'.repeat(9000) : `planted ${n}`,
        recurring: true,
        created_at: now - 60_000,
        last_fired_at: null,
        created_by: 'model',
      },
    }),
  );
  await writeFile(join(dir, 'cron.jsonl'), `${lines.join('\n')}\n`);
  const book = await CronBook.open(join(dir, 'cron.jsonl'));
  await syncSessionSchedules(redis, turn, book);
  const { schedules } = await fleetStatus(redis);
  expect(schedules.length).toBeGreaterThan(0);
  expect(schedules.length).toBeLessThanOrEqual(MAX_CRON_JOBS);
  // The bad expression and the huge prompt were never the session's: never armed.
  expect(schedules.map((s) => s.scheduleId)).not.toContain('00000000');
  expect(schedules.map((s) => s.scheduleId)).not.toContain('00000001');
});

it('a pattern the queue cannot read is a problem said, not a failed turn', async () => {
  const book = {
    list: () => [
      {
        id: 'abcdef01',
        cron: 'not a pattern',
        fire_at: null,
        prompt: 'p',
        recurring: true,
        created_at: Date.now(),
        last_fired_at: null,
        created_by: 'model' as const,
      },
    ],
    nextFireAt: () => Date.now() + 60_000,
  };
  const problems = await syncSessionSchedules(redis, turn, book);
  expect(problems).toEqual([expect.stringMatching(/^schedule abcdef01 cannot be armed: /)]);
  expect((await fleetStatus(redis)).schedules).toEqual([]);
});
