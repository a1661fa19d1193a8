import { z } from 'zod';
import { builtOnFirstUse } from '../../util/built-on-first-use.js';

/** Kimi Code's limits: a session holds at most 50 jobs, each prompt at most 8 KiB of UTF-8. */
export const MAX_CRON_JOBS = 50;
export const MAX_CRON_PROMPT_BYTES = 8 * 1024;
/** Recurring jobs older than this fire one last time (marked stale) and are deleted. */
export const CRON_STALE_AFTER_MS = 7 * 24 * 3600_000;
/** A one-shot further out than this is refused (a pinned date that already passed this year). */
export const ONE_SHOT_MAX_AHEAD_MS = 350 * 24 * 3600_000;

/**
 * The schema of `cron.jsonl`'s records, built on the first read: a new session has no schedule to
 * read, and making it at load was part of every start's time to the first model request.
 */
function buildRecordSchema() {
  /**
   * A time in `cron.jsonl` (Unix ms): 0 up to 2^42 (the year 2109). The file may be planted or edited;
   * a time outside any date (9e15, 1e300) made croner throw on every look at the schedule.
   */
  const unixMs = z
    .number()
    .int()
    .min(0)
    .max(2 ** 42);

  /** A scheduled prompt of the session, as `cron.jsonl` stores it. */
  const cronJobSchema = z.object({
    /** 8 hex digits. */
    id: z.string().regex(/^[0-9a-f]{8}$/),
    /** The 5-field expression; null for a one-shot given as a delay. */
    cron: z.string().nullable(),
    /** A delay one-shot's fire time (Unix ms); null for a cron job. */
    fire_at: unixMs.nullable(),
    prompt: z.string(),
    recurring: z.boolean(),
    /** Unix ms. */
    created_at: unixMs,
    /** The last ideal fire time delivered (Unix ms): the next fire is computed from it. */
    last_fired_at: unixMs.nullable(),
    /** Who made it: the model (CronCreate) or the person (`/loop`). */
    created_by: z.enum(['model', 'user']),
  });

  /** One append-only record of `cron.jsonl`. */
  return z.discriminatedUnion('op', [
    z.object({ op: z.literal('add'), job: cronJobSchema }),
    z.object({ op: z.literal('delete'), id: z.string() }),
    z.object({ op: z.literal('fired'), id: z.string(), last_fired_at: unixMs }),
  ]);
}

export const cronRecordSchema = builtOnFirstUse(buildRecordSchema);

export type CronRecord = z.output<ReturnType<typeof buildRecordSchema>>;
export type CronJob = Extract<CronRecord, { op: 'add' }>['job'];

/** A fire that is due: what the turn it starts is told. */
export interface CronFire {
  readonly job: CronJob;
  /** How many ideal fire times this one delivery stands for (missed fires are coalesced). */
  readonly coalescedCount: number;
  /** The job is past its 7 days: this is its last fire. */
  readonly stale: boolean;
  /** The latest ideal fire time this delivery covers (the job's next cursor). */
  readonly coveredUntil: number;
}

export class CronJobError extends Error {
  override name = 'CronJobError';
}
