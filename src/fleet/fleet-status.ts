import type { Redis } from 'ioredis';
import { CRON_FIRE_JOB, cronFireSchema } from './cron-fire-job.js';
import { openTurnQueue } from './fleet-queue.js';
import { turnJobSchema } from './turn-job.js';

export interface FleetStatus {
  workers: { name: string; address: string; idleS: number }[];
  /** `delayed`: turns parked (waiting for an answer, a busy session, a fire's time); `scheduled`: fires to come. */
  counts: {
    waiting: number;
    running: number;
    delayed: number;
    scheduled: number;
    failed: number;
    completed: number;
  };
  /** The turns running now: which session, on which worker. */
  running: { jobId: string; sessionId: string; turn: number; worker: string }[];
  /** The sessions' schedules armed in the fleet: their cron pattern (null: a delay) and next fire. */
  schedules: { sessionId: string; scheduleId: string; pattern: string | null; next: number | null }[];
}

/** How many delayed jobs and schedulers are read (a session holds at most 50 schedules). */
const MAX_LISTED = 10_000;

/** What the fleet is doing: its workers (BullMQ's client list), its jobs by state, who runs what. */
export async function fleetStatus(redis: Redis): Promise<FleetStatus> {
  const queue = await openTurnQueue(redis);
  try {
    const [workers, counts, active, delayed, schedulers] = await Promise.all([
      queue.getWorkers(),
      queue.getJobCounts('waiting', 'active', 'delayed', 'failed', 'completed', 'prioritized'),
      queue.getActive(0, 999),
      queue.getDelayed(0, MAX_LISTED - 1),
      queue.getJobSchedulers(0, MAX_LISTED - 1, true),
    ]);
    const fires = delayed.filter((job) => job?.name === CRON_FIRE_JOB);
    const schedules: (FleetStatus['schedules'][number] & { sessionId: string })[] = fires.flatMap((job) => {
      const fire = cronFireSchema.safeParse(job.data);
      if (!fire.success || job.repeatJobKey) return [];
      return [{ ...fire.data, pattern: null, next: job.timestamp + job.delay }];
    });
    for (const scheduler of schedulers) {
      const fire = cronFireSchema.safeParse(scheduler.template?.data);
      if (fire.success)
        schedules.push({ ...fire.data, pattern: scheduler.pattern ?? null, next: scheduler.next ?? null });
    }
    // BullMQ names a worker's connection `<prefix>:<queue>:w:<name>`.
    const workerName = (raw: string) => raw.replace(/^.*?:w:/, '');
    return {
      workers: workers.map((w) => ({
        name: workerName(w.name ?? ''),
        address: w.addr ?? '',
        idleS: Number(w.idle ?? 0),
      })),
      counts: {
        waiting: (counts.waiting ?? 0) + (counts.prioritized ?? 0),
        running: counts.active ?? 0,
        delayed: Math.max(0, (counts.delayed ?? 0) - fires.length),
        scheduled: schedules.length,
        failed: counts.failed ?? 0,
        completed: counts.completed ?? 0,
      },
      running: active.flatMap((job) => {
        const data = turnJobSchema.safeParse(job.data);
        if (!data.success || !job.id) return [];
        return [
          {
            jobId: job.id,
            sessionId: data.data.sessionId,
            turn: data.data.turn,
            worker: job.processedBy ?? '?',
          },
        ];
      }),
      schedules: schedules.map(({ sessionId, scheduleId, pattern, next }) => ({
        sessionId,
        scheduleId,
        pattern,
        next,
      })),
    };
  } finally {
    await queue.close();
  }
}
