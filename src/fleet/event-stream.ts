import type { Redis } from 'ioredis';
import { z } from 'zod';
import {
  type WireEnvelopeJSON,
  type WireMessage,
  wireMessageFromJSON,
  wireMessageToJSON,
} from '../wire/index.js';
import { eventStreamKey, jobLockKey, sessionHolderKey } from './fleet-keys.js';

/**
 * What a session's Redis Stream holds, one entry per line of its life in the fleet: a worker took a
 * turn (again, after a crash: `attempt` > 1), a wire event of the turn, the turn's end with the exit
 * code print mode would give.
 */
const streamEntrySchema = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('attempt'), turn: z.int(), attempt: z.int(), worker: z.string() }),
  z.strictObject({
    kind: z.literal('wire'),
    turn: z.int(),
    message: z.strictObject({ type: z.string(), payload: z.record(z.string(), z.unknown()) }),
  }),
  z.strictObject({
    kind: z.literal('parked'),
    turn: z.int(),
    /** What the turn waits for (an entry without it, written before questions parked, is an approval). */
    waits: z.enum(['approval', 'question', 'task', 'children']).optional(),
    action: z.string(),
    description: z.string(),
  }),
  z.strictObject({
    kind: z.literal('end'),
    turn: z.int(),
    code: z.int(),
    error: z.string().optional(),
    goalEnd: z.enum(['complete', 'blocked', 'paused']).optional(),
    /** The session's goal goes on: its next step is this turn (queued as the next job). */
    continues: z.int().positive().optional(),
  }),
]);
export type StreamEntry = z.infer<typeof streamEntrySchema>;

/** One entry as read back: its stream id (to replay from) and what it says. */
export type SessionEvent =
  | ({ id: string } & Extract<StreamEntry, { kind: 'attempt' | 'parked' | 'end' }>)
  | { id: string; kind: 'wire'; turn: number; message: WireMessage }
  | { id: string; kind: 'unreadable'; problem: string };

/** Entries past this many are trimmed (approximately) from the front of a session's stream. */
const STREAM_MAX_LEN = 100_000;
const FIELD = 'e';
const IDLE_MS = 3000;

export function wireEntry(turn: number, message: WireMessage): StreamEntry {
  return { kind: 'wire', turn, message: wireMessageToJSON(message) as WireEnvelopeJSON };
}

/**
 * Appends an entry for the turn job `jobId` only while it holds the session with this worker's lock
 * `token`: the check and the XADD are one script, so a worker that lost its lease adds nothing to
 * the stream, not even one event. Returns the entry's id, or null when refused.
 */
const FENCED_XADD = `
if redis.call('GET', KEYS[2]) ~= ARGV[1] or redis.call('GET', KEYS[3]) ~= ARGV[2] then
  return false
end
return redis.call('XADD', KEYS[1], 'MAXLEN', '~', ARGV[3], '*', ARGV[4], ARGV[5])
`;

export async function appendFencedSessionEvent(
  redis: Redis,
  sessionId: string,
  holder: { jobId: string; token: string },
  entry: StreamEntry,
): Promise<string | null> {
  const id = await redis.eval(
    FENCED_XADD,
    3,
    eventStreamKey(sessionId),
    sessionHolderKey(sessionId),
    jobLockKey(holder.jobId),
    holder.jobId,
    holder.token,
    String(STREAM_MAX_LEN),
    FIELD,
    JSON.stringify(entry),
  );
  return typeof id === 'string' ? id : null;
}

/**
 * Appends an entry for a swarm item's job `jobId` only while the session is held by its turn's job
 * `parentJobId` and the item's own lock holds this worker's `token` (the same script as a turn's).
 */
export async function appendItemSessionEvent(
  redis: Redis,
  sessionId: string,
  item: { parentJobId: string; jobId: string; token: string },
  entry: StreamEntry,
): Promise<string | null> {
  const id = await redis.eval(
    FENCED_XADD,
    3,
    eventStreamKey(sessionId),
    sessionHolderKey(sessionId),
    jobLockKey(item.jobId),
    item.parentJobId,
    item.token,
    String(STREAM_MAX_LEN),
    FIELD,
    JSON.stringify(entry),
  );
  return typeof id === 'string' ? id : null;
}

/**
 * The session's events from after stream id `from` ('0': from the start), as they arrive (XREAD
 * BLOCK), until `signal` aborts. `redis` is used for blocking reads only: an abort disconnects it.
 * `onIdle` runs after each wait that brought nothing (a few seconds).
 */
export async function* readSessionEvents(
  redis: Redis,
  sessionId: string,
  from: string,
  signal: AbortSignal,
  onIdle?: () => Promise<void>,
): AsyncGenerator<SessionEvent> {
  const key = eventStreamKey(sessionId);
  const onAbort = () => redis.disconnect();
  signal.addEventListener('abort', onAbort, { once: true });
  let last = from;
  try {
    while (!signal.aborted) {
      const reply = await redis.xread('COUNT', 200, 'BLOCK', IDLE_MS, 'STREAMS', key, last);
      if (reply === null) await onIdle?.();
      for (const [, entries] of reply ?? []) {
        for (const [id, fields] of entries) {
          last = id;
          yield parseEntry(id, fields);
        }
      }
    }
  } catch (error) {
    if (!signal.aborted) throw error;
  } finally {
    signal.removeEventListener('abort', onAbort);
  }
}

/**
 * The session's events after stream id `from` that are there now (a replay; nothing blocks), the
 * first `count` of them when given (a reader pages through a long stream).
 */
export async function rangeSessionEvents(
  redis: Redis,
  sessionId: string,
  from: string,
  count?: number,
): Promise<SessionEvent[]> {
  const key = eventStreamKey(sessionId);
  const start = from === '0' ? '-' : `(${from}`;
  const entries =
    count === undefined
      ? await redis.xrange(key, start, '+')
      : await redis.xrange(key, start, '+', 'COUNT', count);
  return entries.map(([id, fields]) => parseEntry(id, fields));
}

/** The session's last `count` events, newest first (nothing blocks). */
export async function tailSessionEvents(
  redis: Redis,
  sessionId: string,
  count: number,
): Promise<SessionEvent[]> {
  const entries = await redis.xrevrange(eventStreamKey(sessionId), '+', '-', 'COUNT', count);
  return entries.map(([id, fields]) => parseEntry(id, fields));
}

function parseEntry(id: string, fields: string[]): SessionEvent {
  const text = fields[fields.indexOf(FIELD) + 1];
  try {
    const entry = streamEntrySchema.parse(JSON.parse(text ?? ''));
    if (entry.kind === 'wire')
      return { id, kind: 'wire', turn: entry.turn, message: wireMessageFromJSON(entry.message) };
    return { id, ...entry };
  } catch (error) {
    return {
      id,
      kind: 'unreadable',
      problem: error instanceof Error ? error.message.slice(0, 200) : 'not JSON',
    };
  }
}
