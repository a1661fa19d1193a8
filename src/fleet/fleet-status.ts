import type { Redis } from 'ioredis';
import { openTurnQueue } from './fleet-queue.js';
import { turnJobSchema } from './turn-job.js';

export interface FleetStatus {
  workers: { name: string; address: string; idleS: number }[];
  counts: { waiting: number; running: number; delayed: number; failed: number; completed: number };
  /** The turns running now: which session, on which worker. */
  running: { jobId: string; sessionId: string; turn: number; worker: string }[];
}

/** What the fleet is doing: its workers (BullMQ's client list), its jobs by state, who runs what. */
export async function fleetStatus(redis: Redis): Promise<FleetStatus> {
  const queue = await openTurnQueue(redis);
  try {
    const [workers, counts, active] = await Promise.all([
      queue.getWorkers(),
      queue.getJobCounts('waiting', 'active', 'delayed', 'failed', 'completed', 'prioritized'),
      queue.getActive(0, 999),
    ]);
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
          },
        ];
      }),
    };
  } finally {
    await queue.close();
  }
}
