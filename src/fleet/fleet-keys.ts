/**
 * The names the fleet uses in Redis. BullMQ's keys are `kimi-ts:turns:…`; the fleet's own are
 * `kimi-ts:events:<session>` (a Stream per session). One place, so a reader and a writer agree.
 */
export const FLEET_PREFIX = 'kimi-ts';
export const TURN_QUEUE = 'turns';

export function eventStreamKey(sessionId: string): string {
  return `${FLEET_PREFIX}:events:${sessionId}`;
}

/** BullMQ's lock of a job: holds the lock token of the worker that has the job. */
export function jobLockKey(jobId: string): string {
  return `${FLEET_PREFIX}:${TURN_QUEUE}:${jobId}:lock`;
}
