import { isAbortError } from '../../kosong/errors.js';
import type { GoalBook } from '../../tools/goal/goal-book.js';
import type { TurnOutcome } from '../turn-outcome.js';
import { goalContinuationPrompt } from './goal-prompt.js';

/** Set by a goal turn's steps when one produced a tool result the goal has not seen. */
export type GoalTurnProgress = { progressed: boolean };
/** Runs one turn on a goal reminder. */
export type GoalTurnRunner = (prompt: string) => Promise<TurnOutcome>;

const NOTHING_RAN: TurnOutcome = { stopReason: 'no_tool_calls', finalMessage: null, stepCount: 0 };

/**
 * While the goal is active, one more turn after another, each opened by the goal reminder (Kimi
 * Code's continuation turns). Budgets are checked before and after each; the no-progress breaker
 * and UpdateGoal end it too. Returns the last turn's outcome (`outcome` when none ran).
 */
export async function driveGoal(
  book: GoalBook | undefined,
  outcome: TurnOutcome,
  turnFor: (progress: GoalTurnProgress) => GoalTurnRunner,
): Promise<TurnOutcome> {
  if (!book) return outcome;
  let last = outcome;
  for (let goal = book.current(); goal?.status === 'active'; goal = book.current()) {
    const step = await runGoalStep(book, turnFor);
    if (step === NOTHING_RAN) break;
    last = step;
  }
  return last;
}

/**
 * One continuation turn of the active goal: its budget checked before and after, its progress told
 * to the no-progress breaker. Nothing runs (a turn of no steps) when no goal is active or its budget
 * is spent. A fleet runs each as a job of its own.
 */
export async function runGoalStep(
  book: GoalBook | undefined,
  turnFor: (progress: GoalTurnProgress) => GoalTurnRunner,
): Promise<TurnOutcome> {
  if (book?.current()?.status !== 'active' || book.enforceBudget()) return NOTHING_RAN;
  book.beginTurn();
  const current = book.current();
  if (!current) return NOTHING_RAN;
  const progress = { progressed: false };
  const outcome = await turnFor(progress)(goalContinuationPrompt(current, book.view().elapsedMs));
  book.endTurn(progress.progressed);
  book.enforceBudget();
  return outcome;
}

/** A turn that failed or was cancelled parks an active goal as paused (Kimi Code's rule). */
export function parkGoal(book: GoalBook | undefined, error: unknown, signal: AbortSignal): void {
  if (book?.current()?.status !== 'active') return;
  // The error's class only: its message may quote a provider's answer.
  const reason =
    signal.aborted || isAbortError(error)
      ? 'Interrupted.'
      : `Stopped by an error (${error instanceof Error ? error.name : 'Error'}).`;
  book.setStatus('paused', reason);
}
