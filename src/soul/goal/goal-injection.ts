import type { GoalBook } from '../../tools/goal/goal-book.js';
import type { DynamicInjection } from '../soul-parts.js';
import { goalParkedReminder } from './goal-prompt.js';

/**
 * At a turn boundary only (the first step of a turn), never per step: a paused or blocked goal is
 * mentioned so the model neither forgets nor pursues it. An active goal's turns open with the full
 * goal reminder instead (goalContinuationPrompt).
 */
export class GoalParkedInjection implements DynamicInjection {
  readonly name = 'goal';

  constructor(private readonly book: GoalBook) {}

  inject(view: { stepNo: number }): string | null {
    const goal = this.book.current();
    if (view.stepNo !== 1 || !goal || (goal.status !== 'paused' && goal.status !== 'blocked')) return null;
    return goalParkedReminder(goal);
  }
}
