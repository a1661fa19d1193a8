import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import { z } from 'zod';
import { approvalsKey } from './fleet-keys.js';

/**
 * Approvals of parked turns. A turn that needs one is stopped before its step commits, its job is
 * parked (delayed: it holds no worker), and the request waits here; `fleet approve` answers it and
 * promotes the job; the worker that takes it redoes the step and, when the same action asks again,
 * finds the answer (used once).
 */
const entrySchema = z.strictObject({
  state: z.enum(['pending', 'approve', 'reject']),
  jobId: z.string(),
  sender: z.string(),
  action: z.string(),
  description: z.string(),
});
export type ParkedApproval = z.infer<typeof entrySchema> & { key: string };

/** What is asked for, whatever the request's own id (a redone step asks again with a new one). */
export function approvalKey(request: { sender: string; action: string; description: string }): string {
  return createHash('sha256')
    .update(`${request.sender}\u0000${request.action}\u0000${request.description}`)
    .digest('hex')
    .slice(0, 32);
}

/** The answer given for this request while its turn was parked (taken: it answers once), or null. */
export async function takeAnswer(
  redis: Redis,
  sessionId: string,
  request: { sender: string; action: string; description: string },
): Promise<'approve' | 'reject' | null> {
  const key = approvalKey(request);
  const text = await redis.hget(approvalsKey(sessionId), key);
  const entry = parse(text);
  if (entry === null || entry.state === 'pending') return null;
  await redis.hdel(approvalsKey(sessionId), key);
  return entry.state;
}

/** Whether the request has been answered (and not yet used). */
export async function isAnswered(
  redis: Redis,
  sessionId: string,
  request: { sender: string; action: string; description: string },
): Promise<boolean> {
  const entry = parse(await redis.hget(approvalsKey(sessionId), approvalKey(request)));
  return entry !== null && entry.state !== 'pending';
}

export async function recordPending(
  redis: Redis,
  sessionId: string,
  jobId: string,
  request: { sender: string; action: string; description: string },
): Promise<void> {
  const entry = {
    state: 'pending',
    jobId,
    sender: request.sender,
    action: request.action,
    description: request.description,
  };
  await redis.hset(approvalsKey(sessionId), approvalKey(request), JSON.stringify(entry));
}

export async function pendingApprovals(redis: Redis, sessionId: string): Promise<ParkedApproval[]> {
  const all = await redis.hgetall(approvalsKey(sessionId));
  return Object.entries(all).flatMap(([key, text]) => {
    const entry = parse(text);
    return entry?.state === 'pending' ? [{ ...entry, key }] : [];
  });
}

/** Answers every pending approval of the session; returns the parked jobs to wake up. */
export async function answerPending(
  redis: Redis,
  sessionId: string,
  answer: 'approve' | 'reject',
): Promise<ParkedApproval[]> {
  const pending = await pendingApprovals(redis, sessionId);
  for (const { key, ...entry } of pending)
    await redis.hset(approvalsKey(sessionId), key, JSON.stringify({ ...entry, state: answer }));
  return pending;
}

/** Drops the pending approvals the job `jobId` was parked for (it ended without them: a cancel). */
export async function dropPendingOf(redis: Redis, sessionId: string, jobId: string): Promise<void> {
  const all = await redis.hgetall(approvalsKey(sessionId));
  const ours = Object.entries(all).flatMap(([key, text]) => (parse(text)?.jobId === jobId ? [key] : []));
  if (ours.length > 0) await redis.hdel(approvalsKey(sessionId), ...ours);
}

function parse(text: string | null): z.infer<typeof entrySchema> | null {
  if (text === null) return null;
  try {
    return entrySchema.parse(JSON.parse(text));
  } catch {
    return null;
  }
}
