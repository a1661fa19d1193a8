import type { Redis } from 'ioredis';
import { turnCountKey } from './fleet-keys.js';

/** Raises the session's turn count to `turn` (a submit with an explicit turn number). */
const RECORD_SCRIPT = `
local now = tonumber(redis.call('GET', KEYS[1]) or '0')
if tonumber(ARGV[1]) > now then redis.call('SET', KEYS[1], ARGV[1]) end
return 1
`;

export async function recordTurnNumber(redis: Redis, sessionId: string, turn: number): Promise<void> {
  await redis.eval(RECORD_SCRIPT, 1, turnCountKey(sessionId), String(turn));
}

/** The next turn number of the session, taken (one script: two fires never take the same one). */
export async function takeNextTurnNumber(redis: Redis, sessionId: string): Promise<number> {
  return redis.incr(turnCountKey(sessionId));
}
