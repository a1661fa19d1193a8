import type { Job } from 'bullmq';
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
  running: { jobId: string; sessionId: string; turn: number; worker: string; label?: string }[];
  /** The sessions' schedules armed in the fleet: their cron pattern (null: a delay) and next fire. */
  schedules: { sessionId: string; scheduleId: string; pattern: string | null; next: number | null }[];
  /** Turns pinned to a label that wait (queued or parked) for a worker of it, by label. */
  pinned: { label: string; waiting: number }[];
}

/** How many delayed jobs and schedulers are read (a session holds at most 50 schedules). */
const MAX_LISTED = 10_000;

/** What the fleet is doing: its workers (BullMQ's client list), its jobs by state, who runs what. */
export async function fleetStatus(redis: Redis): Promise<FleetStatus> {
  const queue = await openTurnQueue(redis);
  try {
    const [workers, counts, active, delayed, schedulers, waiting] = await Promise.all([
      queue.getWorkers(),
      queue.getJobCounts('waiting', 'active', 'delayed', 'failed', 'completed', 'prioritized'),
      queue.getActive(0, 999),
      queue.getDelayed(0, MAX_LISTED - 1),
      queue.getJobSchedulers(0, MAX_LISTED - 1, true),
      queue.getJobs(['waiting', 'prioritized'], 0, 999),
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
    const pinned = new Map<string, Set<string>>();
    const labelOf = (job: Job | undefined) => turnJobSchema.safeParse(job?.data).data?.label;
    const pin = (label: string, jobId: string) =>
      pinned.set(label, (pinned.get(label) ?? new Set()).add(jobId));
    // Queued and parked turns (a cron fire's job is no turn: its data has no label).
    for (const job of [...waiting, ...delayed]) {
      const label = labelOf(job);
      if (label !== undefined && job.id) pin(label, job.id);
    }
    // A pinned turn a worker of another label holds for a moment (to park it again) waits too.
    for (const job of active) {
      const label = labelOf(job);
      if (label !== undefined && job.id && !job.processedBy?.startsWith(`${label}@`)) pin(label, job.id);
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
            ...(data.data.label ? { label: data.data.label } : {}),
          },
        ];
      }),
      schedules: schedules.map(({ sessionId, scheduleId, pattern, next }) => ({
        sessionId,
        scheduleId,
        pattern,
        next,
      })),
      pinned: [...pinned].map(([label, jobs]) => ({ label, waiting: jobs.size })),
    };
  } finally {
    await queue.close();
  }
}
