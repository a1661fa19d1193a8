import { z } from 'zod';
import { repoSourceSchema } from './repo-source.js';

/** What a worker label may be: it names a machine (or a kind of machine) in jobs and in `fleet status`. */
export const WORKER_LABEL = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/**
 * One turn of one session, as a job. What it carries is what any worker may see: the work dir,
 * the prompt, the modes and the model alias — never a key (workers read their own config).
 */
export const turnJobSchema = z.strictObject({
  sessionId: z.uuid(),
  turn: z.int().positive(),
  workDir: z.string().min(1),
  prompt: z.string().min(1),
  yolo: z.boolean(),
  afk: z.boolean(),
  model: z.string().min(1).optional(),
  /** Approvals wait for `fleet approve` (the turn parked, holding no worker) instead of afk's yes. */
  ask: z.boolean().optional(),
  /**
   * A cron fire's turn: the id of the session's schedule whose prompt it runs, read from the
   * session's own `cron.jsonl` by the worker (as a local fire is), never from the job.
   */
  fire: z
    .string()
    .regex(/^[0-9a-f]{8}$/)
    .optional(),
  /** When the schedule's fire came due (its cron match, ms): tells this fire from a later one. */
  fireAt: z.int().nonnegative().optional(),
  /** A goal's next step: the previous turn left the session's goal active (its reminder opens it). */
  goalStep: z.literal(true).optional(),
  /**
   * The work dir as a git remote and a base revision (workers on other machines): the worker checks
   * it out into a worktree of its own, on the branch `kimi-ts/<session>` (which the next turn starts
   * from), and pushes that branch back after the turn. `workDir` is then only what lists show.
   */
  repo: repoSourceSchema.optional(),
  /** Pinned to workers started with `--label` this: only they run its turns (say, the machine with its work dir). */
  label: z.string().regex(WORKER_LABEL).optional(),
});
export type TurnJob = z.infer<typeof turnJobSchema>;

/**
 * The job id of a turn: the same turn submitted twice is one job. (BullMQ refuses custom ids with
 * one `:`, and takes three parts: hence the `turn:` in front of `<session>:<turn>`.)
 */
export function turnJobId(sessionId: string, turn: number): string {
  return `turn:${sessionId}:${turn}`;
}

/** Whether `jobId` names a turn job of `sessionId`. */
export function isTurnJobOf(jobId: string, sessionId: string): boolean {
  const prefix = `turn:${sessionId}:`;
  return jobId.startsWith(prefix) && /^[1-9]\d*$/.test(jobId.slice(prefix.length));
}

/** What a worker keeps in the job's progress: where the turn started, to tell a redo from a start. */
export const turnProgressSchema = z.looseObject({ historyAtStart: z.int().nonnegative() });
