import type { Job } from 'bullmq';
import type { Redis } from 'ioredis';
import { z } from 'zod';
import { submitTurn } from './submit-turn.js';
import { takeNextTurnNumber } from './turn-numbers.js';

/** The name of the jobs a session's schedule makes (its job scheduler's, or a one-shot's delayed job). */
export const CRON_FIRE_JOB = 'cron-fire';

/**
 * What a schedule's fire carries: which session and schedule, and how the session's turns run (the
 * modes of the turn that made the schedule). Never the prompt: the worker reads it from the
 * session's `cron.jsonl` when the fire's turn runs, so a fire planted in Redis runs nothing the
 * session does not hold.
 */
export const cronFireSchema = z.strictObject({
  sessionId: z.uuid(),
  scheduleId: z.string().regex(/^[0-9a-f]{8}$/),
  workDir: z.string().min(1),
  yolo: z.boolean(),
  afk: z.boolean(),
  model: z.string().min(1).optional(),
  ask: z.boolean().optional(),
});
export type CronFire = z.infer<typeof cronFireSchema>;

/**
 * A schedule fired: queues the session's next turn to run it. The turn is a turn job like any
 * other, so a session busy with another turn parks it, and any worker may take it.
 */
export async function runCronFireJob(
  redis: Redis,
  job: Job,
  unrecoverable: (message: string) => Error,
): Promise<{ turn: number }> {
  const parsed = cronFireSchema.safeParse(job.data);
  if (!parsed.success) throw unrecoverable('Not a schedule fire of kimi-ts.');
  const { scheduleId, ...fire } = parsed.data;
  const turn = await takeNextTurnNumber(redis, fire.sessionId);
  await submitTurn(redis, {
    ...fire,
    turn,
    prompt: `(scheduled prompt ${scheduleId})`,
    fire: scheduleId,
    // A scheduler's job is made at one match with the delay to the next: this fire's match.
    fireAt: Math.max(0, Math.round(job.timestamp + (job.delay ?? 0))),
  });
  return { turn };
}
