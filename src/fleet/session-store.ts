import type { Redis } from 'ioredis';
import type { SessionWrite } from '../util/write-fence.js';
import {
  jobLockKey,
  type StoredPart,
  sessionHolderKey,
  storedPartKey,
  storedSizesKey,
} from './fleet-keys.js';

/**
 * The session store: each session's history (context.jsonl), event log (wire.jsonl) and state
 * (state.json), mirrored into Redis one committed write at a time. The commit in Redis is the truth;
 * a worker's session folder is its cache, loaded from here when it is missing or behind.
 */

/** The most one part of a session may hold: a hostile or runaway session cannot grow Redis without bound. */
export const MAX_STORED_BYTES: Record<StoredPart, number> = {
  context: 256 * 1024 * 1024,
  wire: 256 * 1024 * 1024,
  state: 1024 * 1024,
};
/** The most one commit may carry (a real step is far smaller; tool output is capped long before). */
export const MAX_COMMIT_BYTES = 32 * 1024 * 1024;

/** A write the store refused for its size: said clearly, and nothing of it is committed. */
export class StoreLimitExceeded extends Error {
  override name = 'StoreLimitExceeded';
}

/** The write was refused because this worker no longer holds the session (its lease was lost). */
export class StoreFenced extends Error {
  override name = 'StoreFenced';
}

/**
 * Commits one write when, and only when, the session's holder is the turn job ARGV[1] and that job's
 * BullMQ lock holds this worker's token ARGV[2]: the check and the write are one script, so no pause
 * between them can let a worker that lost its lease write after another took over. An append adds
 * a chunk; a replace makes the part that one chunk. Sizes are checked against the part's bound.
 */
const COMMIT_SCRIPT = `
if redis.call('GET', KEYS[1]) ~= ARGV[1] or redis.call('GET', KEYS[2]) ~= ARGV[2] then
  return 'fenced'
end
local size = tonumber(redis.call('HGET', KEYS[4], ARGV[3]) or '0')
local n = string.len(ARGV[5])
local limit = tonumber(ARGV[6])
if ARGV[4] == 'append' then
  if size + n > limit then return 'full' end
  if n > 0 then redis.call('RPUSH', KEYS[3], ARGV[5]) end
  redis.call('HSET', KEYS[4], ARGV[3], size + n)
else
  if n > limit then return 'full' end
  redis.call('DEL', KEYS[3])
  if n > 0 then redis.call('RPUSH', KEYS[3], ARGV[5]) end
  redis.call('HSET', KEYS[4], ARGV[3], n)
end
return 'ok'
`;

export interface StoreHolder {
  jobId: string;
  token: string;
}

/** Commits `write` to the session's store, fenced by `holder`; throws StoreFenced or StoreLimitExceeded. */
export async function commitSessionWrite(
  redis: Redis,
  sessionId: string,
  holder: StoreHolder,
  write: SessionWrite,
): Promise<void> {
  const bytes = Buffer.byteLength(write.text, 'utf8');
  if (bytes > MAX_COMMIT_BYTES)
    throw new StoreLimitExceeded(
      `A write of ${bytes} bytes to the session's ${write.file} is over the session store's limit of ${MAX_COMMIT_BYTES} bytes per commit: not committed.`,
    );
  const reply = await redis.eval(
    COMMIT_SCRIPT,
    4,
    sessionHolderKey(sessionId),
    jobLockKey(holder.jobId),
    storedPartKey(sessionId, write.file),
    storedSizesKey(sessionId),
    holder.jobId,
    holder.token,
    write.file,
    write.op,
    write.text,
    String(MAX_STORED_BYTES[write.file]),
  );
  if (reply === 'ok') return;
  if (reply === 'full')
    throw new StoreLimitExceeded(
      `The session's ${write.file} would grow past the session store's limit of ${MAX_STORED_BYTES[write.file]} bytes: not committed.`,
    );
  throw new StoreFenced('This worker lost its lease on the session: another worker has taken the turn over.');
}

/** A session as the store has it: each part's content, or null for a part never committed. */
export type StoredSession = Record<StoredPart, string | null>;

const PARTS: readonly StoredPart[] = ['context', 'wire', 'state'];

/** The bytes the store holds of each part of a session (null: never committed). */
export async function readStoredSizes(
  redis: Redis,
  sessionId: string,
): Promise<Record<StoredPart, number | null>> {
  const sizes = await redis.hgetall(storedSizesKey(sessionId));
  const size = (part: StoredPart) => (sizes[part] === undefined ? null : Number(sizes[part]));
  return { context: size('context'), wire: size('wire'), state: size('state') };
}

/**
 * Reads a session's sizes (a flat HGETALL) and parts (KEYS[2…], bounds in ARGV) at one instant. A
 * part holding more than its bound is not sent: `{'full', n}` names it. The sizes hash is no help
 * there (whoever plants a part writes it too), so the part's own bytes are counted, a window of
 * items at a time, and the count stops as soon as it is past the bound.
 */
const READ_SCRIPT = `
local result = { redis.call('HGETALL', KEYS[1]) }
for i = 2, #KEYS do
  local limit = tonumber(ARGV[i - 1])
  local n = redis.call('LLEN', KEYS[i])
  local total = 0
  for start = 0, n - 1, 256 do
    for _, item in ipairs(redis.call('LRANGE', KEYS[i], start, start + 255)) do
      total = total + string.len(item)
    end
    if total > limit then return { 'full', tostring(i - 1) } end
  end
  result[i] = redis.call('LRANGE', KEYS[i], 0, -1)
end
return result
`;

/**
 * Reads a session from the store, all parts at one instant (one script); only `parts` when given
 * (the others read as null). A part over its bound (planted: commits never make one) is refused
 * before any of it is sent: StoreLimitExceeded.
 */
export async function readStoredSession(
  redis: Redis,
  sessionId: string,
  parts: readonly StoredPart[] = PARTS,
): Promise<StoredSession> {
  const wanted = PARTS.filter((part) => parts.includes(part));
  const reply = (await redis.eval(
    READ_SCRIPT,
    1 + wanted.length,
    storedSizesKey(sessionId),
    ...wanted.map((part) => storedPartKey(sessionId, part)),
    ...wanted.map((part) => String(MAX_STORED_BYTES[part])),
  )) as [string[], ...string[][]] | ['full', string];
  if (reply[0] === 'full') {
    const part = wanted[Number(reply[1]) - 1];
    throw new StoreLimitExceeded(
      `The session store's ${part} holds more than its limit of ${part ? MAX_STORED_BYTES[part] : 0} bytes: not loaded.`,
    );
  }
  const flat = reply[0] as string[];
  const sizes = new Map<string, string>();
  for (let i = 0; i + 1 < flat.length; i += 2) sizes.set(flat[i] as string, flat[i + 1] as string);
  const result: StoredSession = { context: null, wire: null, state: null };
  wanted.forEach((part, index) => {
    if (!sizes.has(part)) return;
    const chunks = (reply[index + 1] ?? []) as string[];
    result[part] = chunks.join('');
  });
  return result;
}
