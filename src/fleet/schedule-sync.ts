import type { Redis } from 'ioredis';
import type { CronBook } from '../tools/cron/cron-book.js';
import type { CronJob } from '../tools/cron/cron-job.js';
import { CRON_FIRE_JOB, type CronFire } from './cron-fire-job.js';
import { cronSchedulerId, oneShotFireJobId, sessionSchedulesKey } from './fleet-keys.js';
import { openTurnQueue } from './fleet-queue.js';
import type { TurnJob } from './turn-job.js';

/** What the sync reads of a session's schedules (its CronBook). */
export type ScheduleSource = Pick<CronBook, 'list' | 'nextFireAt'>;

/** How many fires of schedules Redis keeps once done (their turns are kept as turn jobs). */
const KEEP_FIRES = { age: 24 * 3600, count: 1000 };

/**
 * Makes the fleet's schedulers match the session's schedules after one of its turns: a recurring
 * schedule is a BullMQ job scheduler (a repeatable job on its cron pattern, local time); a one-shot
 * is a job scheduler limited to one fire, or a delayed job when it was given as a delay; a schedule
 * deleted (CronDelete, `/loop stop`, fired for the last time) loses its scheduler. The session's
 * `cron.jsonl` is the truth and holds the limits (50 schedules, 8 KiB prompts): what it skipped, this
 * never sees. Returns the problems met (a pattern BullMQ cannot read), one line each.
 */
export async function syncSessionSchedules(
  redis: Redis,
  turn: TurnJob,
  book: ScheduleSource,
  now: number = Date.now(),
): Promise<string[]> {
  const problems: string[] = [];
  const setKey = sessionSchedulesKey(turn.sessionId);
  const schedules = book.list();
  const known = new Set(await redis.smembers(setKey));
  const queue = await openTurnQueue(redis);
  try {
    for (const schedule of schedules) {
      const fire: CronFire = {
        sessionId: turn.sessionId,
        scheduleId: schedule.id,
        workDir: turn.workDir,
        yolo: turn.yolo,
        afk: turn.afk,
        ...(turn.model ? { model: turn.model } : {}),
        ...(turn.ask ? { ask: true } : {}),
      };
      try {
        await armSchedule(queue, schedule, fire, book.nextFireAt(schedule), now);
        await redis.sadd(setKey, schedule.id);
      } catch (error) {
        problems.push(
          `schedule ${schedule.id} cannot be armed: ${error instanceof Error ? error.message.slice(0, 200) : 'unknown error'}`,
        );
      }
      known.delete(schedule.id);
    }
    // What the session no longer holds.
    for (const gone of known) {
      await queue.removeJobScheduler(cronSchedulerId(turn.sessionId, gone));
      await queue.remove(oneShotFireJobId(turn.sessionId, gone));
      await redis.srem(setKey, gone);
    }
  } finally {
    await queue.close();
  }
  return problems;
}

/** After a turn: the sync, each problem one line of `log` (arming never fails the turn). */
export async function armSchedulesAfterTurn(
  redis: Redis,
  turn: TurnJob,
  book: ScheduleSource | null,
  log: (line: string) => void,
): Promise<void> {
  if (book === null) return;
  const problems = await syncSessionSchedules(redis, turn, book).catch((error: unknown) => [
    `its schedules could not be armed: ${error instanceof Error ? error.message : 'unknown error'}`,
  ]);
  for (const problem of problems) log(`session ${turn.sessionId}: ${problem}`);
}

async function armSchedule(
  queue: Awaited<ReturnType<typeof openTurnQueue>>,
  schedule: CronJob,
  fire: CronFire,
  nextFireAt: number | null,
  now: number,
): Promise<void> {
  const template = {
    name: CRON_FIRE_JOB,
    data: fire,
    opts: { removeOnComplete: KEEP_FIRES, removeOnFail: KEEP_FIRES },
  };
  if (schedule.cron !== null) {
    // The fire comes at the pattern's match; the session's own jitter (a fixed lateness per
    // schedule) is honoured by the fire's turn, which waits, parked, until the session says due.
    await queue.upsertJobScheduler(
      cronSchedulerId(fire.sessionId, schedule.id),
      schedule.recurring ? { pattern: schedule.cron } : { pattern: schedule.cron, limit: 1 },
      template,
    );
    return;
  }
  if (nextFireAt === null) return;
  // A delay: one delayed job, added once (its id is the schedule's).
  await queue.add(CRON_FIRE_JOB, fire, {
    ...template.opts,
    jobId: oneShotFireJobId(fire.sessionId, schedule.id),
    delay: Math.max(0, nextFireAt - now),
  });
}
