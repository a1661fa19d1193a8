import type { Redis } from 'ioredis';
import type { z } from 'zod';

/** A record of a parked request as Redis holds it: whatever its kind, pending until answered. */
export interface ParkedEntry {
  state: string;
  /** The parked turn job that waits for the answer (woken when it comes). */
  jobId: string;
}

/**
 * One kind of request a parked turn waits for (an approval, a question): how its records are read
 * (untrusted: whoever can write to Redis wrote them), keyed and answered.
 */
export interface ParkedRequestKind<Asked, Entry extends ParkedEntry, Answer> {
  /** The session's hash of such records. */
  hashKey: (sessionId: string) => string;
  entry: z.ZodType<Entry>;
  /** What is asked, whatever the request's own id (a redone step asks again with a new one). */
  keyOf: (asked: Asked) => string;
  /** The pending record of `asked`, parked by job `jobId`. */
  pendingEntry: (jobId: string, asked: Asked) => Entry;
  /** The answer an answered record holds; null while it is pending. */
  answerOf: (entry: Entry) => Answer | null;
  /** The record once answered. */
  answeredEntry: (entry: Entry, answer: Answer) => Entry;
  /**
   * One request of the kind waits at a time: a pending one left from an earlier step (the redone
   * step asked another) waits for nothing now, and must not take the answer meant for the new one.
   */
  oneAtATime: boolean;
}

/** Records the answer to a pending record, if it still waits: a second answer changes nothing. */
const ANSWER_SCRIPT = `
local text = redis.call('HGET', KEYS[1], ARGV[1])
if not text or cjson.decode(text).state ~= 'pending' then return 0 end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
return 1
`;

/**
 * The requests of parked turns of one kind. A turn whose request only a person can answer is
 * stopped before the step that asked commits, its job parked (delayed: it holds no worker), and the
 * request waits here; an answer (`fleet approve`, `fleet answer`, the page) is recorded and the job
 * woken; the worker that takes it redoes the step and, when the same request is asked again, finds
 * the answer here (used once).
 */
export class ParkedRequests<Asked, Entry extends ParkedEntry, Answer> {
  constructor(private readonly kind: ParkedRequestKind<Asked, Entry, Answer>) {}

  /** The answer given for this request while its turn was parked (taken: it answers once), or null. */
  async take(redis: Redis, sessionId: string, asked: Asked): Promise<Answer | null> {
    const key = this.kind.keyOf(asked);
    const entry = this.parse(await redis.hget(this.kind.hashKey(sessionId), key));
    const answer = entry === null ? null : this.kind.answerOf(entry);
    if (answer === null) return null;
    await redis.hdel(this.kind.hashKey(sessionId), key);
    return answer;
  }

  /** Whether the request has been answered (and the answer not yet used). */
  async isAnswered(redis: Redis, sessionId: string, asked: Asked): Promise<boolean> {
    const entry = this.parse(await redis.hget(this.kind.hashKey(sessionId), this.kind.keyOf(asked)));
    return entry !== null && this.kind.answerOf(entry) !== null;
  }

  /** Records the request as pending, parked by job `jobId`. */
  async record(redis: Redis, sessionId: string, jobId: string, asked: Asked): Promise<void> {
    const key = this.kind.keyOf(asked);
    const hash = this.kind.hashKey(sessionId);
    if (this.kind.oneAtATime) {
      const stale = (await this.pending(redis, sessionId)).filter((pending) => pending.key !== key);
      if (stale.length > 0) await redis.hdel(hash, ...stale.map((pending) => pending.key));
    }
    await redis.hset(hash, key, JSON.stringify(this.kind.pendingEntry(jobId, asked)));
  }

  /** The session's requests that wait for an answer (unreadable records are none). */
  async pending(redis: Redis, sessionId: string): Promise<(Entry & { key: string })[]> {
    const all = await redis.hgetall(this.kind.hashKey(sessionId));
    return Object.entries(all).flatMap(([key, text]) => {
      const entry = this.parse(text);
      return entry !== null && entry.state === 'pending' ? [{ ...entry, key }] : [];
    });
  }

  /** Answers the pending request `key`, if it still waits. Returns whether this call answered it. */
  async answer(redis: Redis, sessionId: string, key: string, answer: Answer): Promise<boolean> {
    const hash = this.kind.hashKey(sessionId);
    const entry = this.parse(await redis.hget(hash, key));
    if (entry === null || entry.state !== 'pending') return false;
    const answered = JSON.stringify(this.kind.answeredEntry(entry, answer));
    return (await redis.eval(ANSWER_SCRIPT, 1, hash, key, answered)) === 1;
  }

  /**
   * Drops the records job `jobId` parked for (it ends without them: a cancel), answered or not: a
   * request nobody asks any more is not listed as waiting, nor its answer kept for a later ask.
   */
  async dropPendingOf(redis: Redis, sessionId: string, jobId: string): Promise<void> {
    const hash = this.kind.hashKey(sessionId);
    const all = await redis.hgetall(hash);
    const ours = Object.entries(all).flatMap(([key, text]) =>
      this.parse(text)?.jobId === jobId ? [key] : [],
    );
    if (ours.length > 0) await redis.hdel(hash, ...ours);
  }

  private parse(text: string | null): Entry | null {
    if (text === null) return null;
    try {
      const parsed = this.kind.entry.safeParse(JSON.parse(text));
      return parsed.success ? parsed.data : null;
    } catch {
      return null;
    }
  }
}

/**
 * What a fleet turn does with a request of one kind that nobody at the worker can answer: the
 * answer given while the turn was parked for it (used once), or park: the request is recorded, and
 * `park` stops the turn before the step that asked commits. The first request that parks is kept
 * in `parked`.
 */
export class ParkingGate<Asked, Answer> {
  parked: Asked | null = null;

  constructor(
    private readonly requests: Pick<ParkedRequests<Asked, never, Answer>, 'take' | 'record' | 'isAnswered'>,
    private readonly redis: Redis,
    private readonly sessionId: string,
    private readonly jobId: string,
    private readonly park: () => void,
  ) {}

  async handle(asked: Asked, resolve: (answer: Answer) => void): Promise<void> {
    const answer = await this.requests.take(this.redis, this.sessionId, asked);
    if (answer !== null) {
      resolve(answer);
      return;
    }
    if (this.parked !== null) return;
    this.parked = asked;
    await this.requests.record(this.redis, this.sessionId, this.jobId, asked);
    this.park();
  }

  /** Whether what parked the turn was answered already (before the job was parked). */
  async isAnswered(): Promise<boolean> {
    return this.parked !== null && this.requests.isAnswered(this.redis, this.sessionId, this.parked);
  }
}
