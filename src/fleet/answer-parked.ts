import type { Redis } from 'ioredis';
import { openTurnQueue } from './fleet-queue.js';
import { answerPending, type ParkedApproval } from './parked-approvals.js';

/**
 * Answers every approval a parked turn of the session waits for, and wakes its job (promoted: any
 * worker takes it). `fleet approve` and the web page in queue mode both answer through here.
 * Returns what was answered (nothing: no approval was waiting).
 */
export async function answerParkedTurn(
  redis: Redis,
  sessionId: string,
  answer: 'approve' | 'reject',
): Promise<ParkedApproval[]> {
  const answered = await answerPending(redis, sessionId, answer);
  if (answered.length === 0) return answered;
  const queue = await openTurnQueue(redis);
  try {
    for (const jobId of new Set(answered.map((entry) => entry.jobId))) {
      const job = await queue.getJob(jobId);
      if (job && (await job.isDelayed())) await job.promote();
    }
  } finally {
    await queue.close();
  }
  return answered;
}
