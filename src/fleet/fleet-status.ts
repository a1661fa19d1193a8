import type { Job } from 'bullmq';
import type { Redis } from 'ioredis';
import { CRON_FIRE_JOB, cronFireSchema } from './cron-fire-job.js';
import { openTurnQueue } from './fleet-queue.js';
import { SWARM_ITEM_JOB, swarmItemJobSchema } from './swarm-item-job.js';
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
  /** Turns waiting (holding no worker) for their swarm's items, and how many of those have not ended. */
  swarms: { jobId: string; sessionId: string; turn: number; children: number }[];
  /** Swarm items (child jobs) running now: of which session's turn, which item, on which worker. */
  items: { jobId: string; sessionId: string; turn: number; index: number; worker: string }[];
}

/** How many delayed jobs and schedulers are read (a session holds at most 50 schedules). */
const MAX_LISTED = 10_000;

/** What the fleet is doing: its workers (BullMQ's client list), its jobs by state, who runs what. */
export async function fleetStatus(redis: Redis): Promise<FleetStatus> {
  const queue = await openTurnQueue(redis);
  try {
    const [workers, counts, active, delayed, schedulers, waiting, parents] = await Promise.all([
      queue.getWorkers(),
      queue.getJobCounts('waiting', 'active', 'delayed', 'failed', 'completed', 'prioritized'),
      queue.getActive(0, 999),
      queue.getDelayed(0, MAX_LISTED - 1),
      queue.getJobSchedulers(0, MAX_LISTED - 1, true),
      queue.getJobs(['waiting', 'prioritized'], 0, 999),
      queue.getJobs(['waiting-children'], 0, 999),
    ]);
    const swarms: FleetStatus['swarms'] = [];
    for (const parent of parents) {
      const data = turnJobSchema.safeParse(parent?.data);
      if (!data.success || !parent.id) continue;
      const { unprocessed = 0 } = await parent.getDependenciesCount({ unprocessed: true });
      swarms.push({
        jobId: parent.id,
        sessionId: data.data.sessionId,
        turn: data.data.turn,
        children: unprocessed,
      });
    }
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
      swarms,
      items: active.flatMap((job) => {
        const item = swarmItemJobSchema.safeParse(job.data);
        if (job.name !== SWARM_ITEM_JOB || !item.success || !job.id) return [];
        const { sessionId, turn, index } = item.data;
        return [{ jobId: job.id, sessionId, turn, index, worker: job.processedBy ?? '?' }];
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
