import type { Redis } from 'ioredis';
import { jobKey, sessionHolderKey, turnRunsKey } from './fleet-keys.js';
import { turnJobId } from './turn-job.js';

/**
 * Makes the turn job `jobId` the holder of its session, unless another job holds it and is alive (its
 * BullMQ lock exists: a running turn whose worker renews it). One script, so two workers cannot
 * both see the session free. Returns null when claimed, else the live holder's job id.
 */
const CLAIM_SCRIPT = `
local holder = redis.call('GET', KEYS[1])
if holder and holder ~= ARGV[1] and redis.call('EXISTS', ARGV[2] .. holder .. ':lock') == 1 then
  return holder
end
redis.call('SET', KEYS[1], ARGV[1])
return false
`;

export async function claimSession(redis: Redis, sessionId: string, jobId: string): Promise<string | null> {
  const lockPrefix = jobKey('');
  const holder = await redis.eval(CLAIM_SCRIPT, 1, sessionHolderKey(sessionId), jobId, lockPrefix);
  return typeof holder === 'string' ? holder : null;
}

/**
 * Whether the turn before `turn` is done with (finished, failed, or never queued/removed): turns of
 * a session run in order, one at a time.
 */
export async function previousTurnDone(redis: Redis, sessionId: string, turn: number): Promise<boolean> {
  if (turn <= 1) return true;
  const key = jobKey(turnJobId(sessionId, turn - 1));
  const [exists, finishedOn] = await Promise.all([redis.exists(key), redis.hget(key, 'finishedOn')]);
  return exists === 0 || finishedOn !== null;
}

/** Counts one more run of the turn (a first run is 1; a takeover after a crash, 2 and up). */
export function countTurnRun(redis: Redis, sessionId: string, turn: number): Promise<number> {
  return redis.hincrby(turnRunsKey(sessionId), String(turn), 1);
}
