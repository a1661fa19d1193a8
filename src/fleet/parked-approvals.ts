import { createHash } from 'node:crypto';
import { z } from 'zod';
import { approvalsKey } from './fleet-keys.js';
import { ParkedRequests } from './parked-requests.js';

/** An approval as a parked turn asks it: who asks, for what. */
export type AskedApproval = { sender: string; action: string; description: string };

const entrySchema = z.strictObject({
  state: z.enum(['pending', 'approve', 'reject']),
  jobId: z.string(),
  sender: z.string(),
  action: z.string(),
  description: z.string(),
});
type Entry = z.infer<typeof entrySchema>;
export type ParkedApproval = Entry & { key: string };

/** What is asked for, whatever the request's own id (a redone step asks again with a new one). */
export function approvalKey(request: AskedApproval): string {
  return createHash('sha256')
    .update(`${request.sender}\u0000${request.action}\u0000${request.description}`)
    .digest('hex')
    .slice(0, 32);
}

/** Approvals of parked turns (`fleet approve`, the page): answered approve or reject. */
export const parkedApprovals = new ParkedRequests<AskedApproval, Entry, 'approve' | 'reject'>({
  hashKey: approvalsKey,
  entry: entrySchema,
  keyOf: approvalKey,
  pendingEntry: (jobId, { sender, action, description }) => ({
    state: 'pending',
    jobId,
    sender,
    action,
    description,
  }),
  answerOf: (entry) => (entry.state === 'pending' ? null : entry.state),
  answeredEntry: (entry, answer) => ({ ...entry, state: answer }),
  // `fleet approve` answers every pending approval of the session at once: none is dropped.
  oneAtATime: false,
});
