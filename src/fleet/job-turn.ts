import type { UILoop } from '../soul/run-soul.js';
import type { FleetSession } from './job-session.js';
import type { TurnJob } from './turn-job.js';

/** How a turn job's turn went: it ran, or (a cron fire) it is not due yet, or its schedule is gone. */
export type JobTurn = { kind: 'ran' } | { kind: 'not-due'; at: number } | { kind: 'gone' };

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
  return at === null || at === undefined ? { kind: 'gone' } : { kind: 'not-due', at };
}
