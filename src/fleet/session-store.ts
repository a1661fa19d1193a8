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
 * Reads a session from the store, all parts at one instant (one MULTI); only `parts` when given (the
 * others read as null).
 */
export async function readStoredSession(
  redis: Redis,
  sessionId: string,
  parts: readonly StoredPart[] = PARTS,
): Promise<StoredSession> {
  const wanted = PARTS.filter((part) => parts.includes(part));
  const multi = redis.multi().hgetall(storedSizesKey(sessionId));
  for (const part of wanted) multi.lrange(storedPartKey(sessionId, part), 0, -1);
  const replies = await multi.exec();
  if (replies === null) throw new Error('Reading the session store was interrupted.');
  for (const [error] of replies) if (error) throw error;
  const sizes = replies[0]?.[1] as Record<string, string>;
  const result: StoredSession = { context: null, wire: null, state: null };
  wanted.forEach((part, index) => {
    if (sizes[part] === undefined) return;
    const chunks = replies[index + 1]?.[1] as string[];
    result[part] = chunks.join('');
  });
  return result;
}
