import type { Job } from 'bullmq';
import type { Redis } from 'ioredis';
import { openTurnQueue } from './fleet-queue.js';
import { turnJobSchema } from './turn-job.js';

export interface FleetStatus {
  workers: { name: string; address: string; idleS: number }[];
  counts: { waiting: number; running: number; delayed: number; failed: number; completed: number };
  /** The turns running now: which session, on which worker. */
  running: { jobId: string; sessionId: string; turn: number; worker: string; label?: string }[];
  /** Turns pinned to a label that wait (queued or parked) for a worker of it, by label. */
  pinned: { label: string; waiting: number }[];
}

/** What the fleet is doing: its workers (BullMQ's client list), its jobs by state, who runs what. */
export async function fleetStatus(redis: Redis): Promise<FleetStatus> {
  const queue = await openTurnQueue(redis);
  try {
    const [workers, counts, active, waiting] = await Promise.all([
      queue.getWorkers(),
      queue.getJobCounts('waiting', 'active', 'delayed', 'failed', 'completed', 'prioritized'),
      queue.getActive(0, 999),
      queue.getJobs(['waiting', 'prioritized', 'delayed'], 0, 999),
    ]);
    const pinned = new Map<string, Set<string>>();
    const labelOf = (job: Job | undefined) => turnJobSchema.safeParse(job?.data).data?.label;
    const pin = (label: string, jobId: string) =>
      pinned.set(label, (pinned.get(label) ?? new Set()).add(jobId));
    for (const job of waiting) {
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
        delayed: counts.delayed ?? 0,
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
      pinned: [...pinned].map(([label, jobs]) => ({ label, waiting: jobs.size })),
    };
  } finally {
    await queue.close();
  }
}
