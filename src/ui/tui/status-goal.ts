import { revealInvisible } from '../../util/reveal-invisible.js';
import type { WireEventOf } from '../../wire/events.js';
import {
  type GoalSnapshot,
  goalAfterUpdate,
  goalBudgetText,
  goalElapsedAt,
  shortObjective,
} from '../common/goal-line.js';

/** How much of the objective the status line shows. */
const STATUS_OBJECTIVE_CHARS = 32;

/** The goal on the status line: the snapshot and when it arrived (an active goal's clock runs on). */
export interface GoalShown {
  goal: GoalSnapshot;
  receivedAt: number;
}

/** The goal after a `GoalUpdated` (see `goalAfterUpdate`: a completed one stays until the next job). */
export function applyGoalUpdate(
  shown: GoalShown | null,
  payload: WireEventOf<'GoalUpdated'>['payload'],
  now: number,
): GoalShown | null {
  const goal = goalAfterUpdate(shown?.goal ?? null, payload);
  if (!goal) return null;
  return goal === shown?.goal ? shown : { goal, receivedAt: now };
}

/**
 * `goal active: fix the build · turns 1/5 · tokens 1.2k/∞ · time 0:12/30:00`. The objective is the
 * model's or a file's text as much as the person's: control and invisible characters are revealed.
 */
export function goalStatusPart(shown: GoalShown, now: number): { text: string; tone: GoalTone } {
  const { goal } = shown;
  const objective = revealInvisible(shortObjective(goal.objective, STATUS_OBJECTIVE_CHARS));
  const budgets = goalBudgetText(goal, goalElapsedAt(goal, shown.receivedAt, now));
  return { text: `goal ${goal.status}: ${objective} · ${budgets}`, tone: GOAL_TONES[goal.status] };
}

/** A status line tone (status-line.ts draws it). */
type GoalTone = 'accent' | 'warn' | 'ok';

const GOAL_TONES: Record<GoalSnapshot['status'], GoalTone> = {
  active: 'accent',
  paused: 'warn',
  blocked: 'warn',
  complete: 'ok',
};
