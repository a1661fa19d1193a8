import type { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { openTurnQueue } from './fleet-queue.js';
import { type TurnJob, turnJobId, turnJobSchema } from './turn-job.js';
import { recordTurnNumber } from './turn-numbers.js';

/** How many finished turn jobs Redis keeps (their results), and for how long. */
const KEEP_FINISHED = { age: 7 * 24 * 3600, count: 10_000 };

/**
 * Queues one turn. The job id is the session and the turn: a turn submitted twice is one job (the
 * second submit finds the first and adds nothing). Returns the job id and whether it was there.
 */
export async function submitTurn(redis: Redis, job: TurnJob): Promise<{ jobId: string; existed: boolean }> {
  const given = turnJobSchema.parse(job);
  const jobId = turnJobId(given.sessionId, given.turn);
  const queue = await openTurnQueue(redis);
  try {
    const data = await withSessionPlace(queue, given);
    const existed = (await queue.getJob(jobId)) !== undefined;
    // A cron fire takes the turn after the highest one submitted.
    await recordTurnNumber(redis, data.sessionId, data.turn);
    // Adding an id that exists is a no-op in BullMQ, so two racing submits still make one job.
    await queue.add('turn', data, {
      jobId,
      attempts: 1,
      removeOnComplete: KEEP_FINISHED,
      removeOnFail: KEEP_FINISHED,
    });
    return { jobId, existed };
  } finally {
    await queue.close();
  }
}

/**
 * A session stays where it was put: a later turn submitted without `--repo` or `--label` keeps the
 * remote (and base) and the label of the turn before it, when that job is still kept.
 */
async function withSessionPlace(queue: Queue, job: TurnJob): Promise<TurnJob> {
  if (job.turn <= 1 || (job.repo && job.label)) return job;
  const previous = turnJobSchema.safeParse(
    (await queue.getJob(turnJobId(job.sessionId, job.turn - 1)))?.data,
  );
  if (!previous.success) return job;
  const { repo, label, workDir } = previous.data;
  return {
    ...job,
    ...(!job.repo && repo ? { repo, workDir } : {}),
    ...(!job.label && label ? { label } : {}),
  };
}

/** The state of a turn's job ('completed', 'failed', 'active', …, 'unknown') and why it failed. */
export async function turnJobState(
  redis: Redis,
  jobId: string,
): Promise<{ state: string; failedReason?: string }> {
  const queue = await openTurnQueue(redis);
  try {
    const job = await queue.getJob(jobId);
    if (!job) return { state: 'unknown' };
    const state = await job.getState();
    return job.failedReason ? { state, failedReason: job.failedReason } : { state };
  } finally {
    await queue.close();
  }
}
