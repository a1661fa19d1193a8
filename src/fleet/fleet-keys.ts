/**
 * The names the fleet uses in Redis. BullMQ's keys are `kimi-ts:turns:…`; the fleet's own are
 * `kimi-ts:events:<session>` (a Stream per session). One place, so a reader and a writer agree.
 */
export const FLEET_PREFIX = 'kimi-ts';
export const TURN_QUEUE = 'turns';

export function eventStreamKey(sessionId: string): string {
  return `${FLEET_PREFIX}:events:${sessionId}`;
}

/** Where BullMQ keeps a job of the turn queue (a hash); `…:lock` holds its worker's lock token. */
export function jobKey(jobId: string): string {
  return `${FLEET_PREFIX}:${TURN_QUEUE}:${jobId}`;
}

/** BullMQ's lock of a job: holds the lock token of the worker that has the job. */
export function jobLockKey(jobId: string): string {
  return `${jobKey(jobId)}:lock`;
}

/** The turn job that holds a session now (its writes are fenced by it). */
export function sessionHolderKey(sessionId: string): string {
  return `${FLEET_PREFIX}:holder:${sessionId}`;
}

/** How many times each turn of a session was started (a hash: turn → runs). */
export function turnRunsKey(sessionId: string): string {
  return `${FLEET_PREFIX}:runs:${sessionId}`;
}

/** A cancel asked for a session's running (or next) turn, caught by whichever worker takes it. */
export function cancelFlagKey(sessionId: string): string {
  return `${FLEET_PREFIX}:cancel:${sessionId}`;
}

/** Where a cancel is broadcast to the workers (the message is the session id). */
export const CANCEL_CHANNEL = `${FLEET_PREFIX}:cancels`;

/** A session's approvals waiting for an answer, and answers waiting for their turn (a hash). */
export function approvalsKey(sessionId: string): string {
  return `${FLEET_PREFIX}:approvals:${sessionId}`;
}

/** A session's questions waiting for an answer, and answers waiting for their turn (a hash). */
export function questionsKey(sessionId: string): string {
  return `${FLEET_PREFIX}:questions:${sessionId}`;
}

/** The highest turn number given out for a session (submits and cron fires take theirs from it). */
export function turnCountKey(sessionId: string): string {
  return `${FLEET_PREFIX}:turn-count:${sessionId}`;
}

/** The schedules (cron.jsonl entries) of a session that have a job scheduler or a delayed fire (a set). */
export function sessionSchedulesKey(sessionId: string): string {
  return `${FLEET_PREFIX}:schedules:${sessionId}`;
}

/** The BullMQ job scheduler of a session's schedule (its repeatable fires). */
export function cronSchedulerId(sessionId: string, scheduleId: string): string {
  return `cron:${sessionId}:${scheduleId}`;
}

/** The delayed fire of a session's one-shot schedule given as a delay (fired once). */
export function oneShotFireJobId(sessionId: string, scheduleId: string): string {
  return `cron-once:${sessionId}:${scheduleId}`;
}

/** The parts of a session the session store mirrors: its history, its event log, its state. */
export type StoredPart = 'context' | 'wire' | 'state';

/** One mirrored part of a session in the session store (a list of the chunks committed, in order). */
export function storedPartKey(sessionId: string, part: StoredPart): string {
  return `${FLEET_PREFIX}:store:${sessionId}:${part}`;
}

/** The session store's sizes of a session's parts (a hash: part → bytes); a part not in it was never committed. */
export function storedSizesKey(sessionId: string): string {
  return `${FLEET_PREFIX}:store:${sessionId}:sizes`;
}

/** A swarm a turn handed out as child jobs: what each item runs (its prompt), read by the worker that takes one. */
export function swarmRecordKey(sessionId: string, swarmKey: string): string {
  return `${FLEET_PREFIX}:swarm:${sessionId}:${swarmKey}`;
}

/** The worker that keeps the background tasks of a session's turn parked for a WaitFor (expires with it). */
export function parkedWaitKey(sessionId: string): string {
  return `${FLEET_PREFIX}:waits:${sessionId}`;
}

/** What a session's turns cost so far, counted by the workers that ran them (a hash: dollars, unpriced). */
export function sessionCostKey(sessionId: string): string {
  return `${FLEET_PREFIX}:cost:${sessionId}`;
}
