import type { UILoop } from '../soul/run-soul.js';
import { parseCronExpression } from '../tools/cron/cron-expression.js';
import { recurringJitterMs } from '../tools/cron/cron-jitter.js';
import type { CronJob } from '../tools/cron/cron-job.js';
import type { FleetSession } from './job-session.js';
import type { TurnJob } from './turn-job.js';

/**
 * How a turn job's turn went: it ran; or, for a cron fire, not yet (the session's jitter for it is
 * still to come), or nothing to fire (the schedule is gone, or this fire was delivered coalesced
 * into an earlier turn, as a local session delivers fires missed while it was busy).
 */
export type JobTurn =
  | { kind: 'ran' }
  | { kind: 'not-due'; at: number }
  | { kind: 'nothing-to-fire'; why: string };

/**
 * Runs the job's turn on the session: a typed prompt, a redo from the last committed step, or a
 * cron fire, which runs the session's own schedule as a local fire does (its prompt inside the
 * cron-fire envelope, a ScheduleFired event, never a slash command) once the session says it is due.
 */
export async function runJobTurn(
  session: FleetSession,
  data: TurnJob,
  resume: boolean,
  ui: UILoop,
  signal: AbortSignal,
): Promise<JobTurn> {
  if (resume) {
    await session.resumeTurn(data.prompt, ui, signal);
    return { kind: 'ran' };
  }
  if (data.goalStep) {
    await session.runGoalStep(data.prompt, ui, signal);
    return { kind: 'ran' };
  }
  if (data.fire === undefined) {
    await session.runFleetTurn(data.prompt, ui, signal);
    return { kind: 'ran' };
  }
  if ((await session.runScheduledTurn(data.fire, ui, signal)) !== null) return { kind: 'ran' };
  const book = session.cronBook;
  const schedule = book?.get(data.fire);
  const at = schedule === undefined ? null : book?.nextFireAt(schedule);
  if (schedule === undefined || at === null || at === undefined)
    return { kind: 'nothing-to-fire', why: 'its schedule is gone' };
  if (data.fireAt !== undefined && at > latestDueOf(schedule, data.fireAt))
    return { kind: 'nothing-to-fire', why: 'its fire was delivered with an earlier one' };
  return { kind: 'not-due', at };
}

/** How late the session may hold a fire that came due at `fireAt` (its fixed jitter, plus a second). */
function latestDueOf(schedule: CronJob, fireAt: number): number {
  if (schedule.cron === null || !schedule.recurring) return fireAt + 1000;
  try {
    return fireAt + recurringJitterMs(schedule.id, parseCronExpression(schedule.cron), fireAt) + 1000;
  } catch {
    return fireAt + 1000;
  }
}
