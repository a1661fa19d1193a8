import { useEffect, useMemo, useState } from 'preact/hooks';
import { revealInvisible } from '../../../util/reveal-invisible.js';
import { type GoalSnapshot, type GoalState, goalBudgetUse, goalElapsedAt } from '../../common/goal-line.js';

/** How often an active goal's clock is redrawn. */
const CLOCK_MS = 1000;

/**
 * The session's goal: its state, its objective (text, never markup: Preact escapes it, and
 * invisible characters show as markers), and turns / tokens / time against their budgets, live
 * from `GoalUpdated`. An active goal's clock runs between two events.
 */
export function GoalPanel({ goal }: { goal: GoalSnapshot | null }) {
  // When this snapshot arrived: the elapsed time it carries was true then.
  const receivedAt = useMemo(() => Date.now(), [goal]);
  const [now, setNow] = useState(receivedAt);
  useEffect(() => {
    if (goal?.status !== 'active') return;
    const timer = setInterval(() => setNow(Date.now()), CLOCK_MS);
    return () => clearInterval(timer);
  }, [goal]);
  if (!goal) return null;
  const use = goalBudgetUse(goal, goalElapsedAt(goal, receivedAt, Math.max(now, receivedAt)));
  return (
    <section class={`goal ${goal.status}`} aria-label="goal" data-state={goal.status}>
      <p class="goal-head">
        <span class="goal-state">{STATE_WORDS[goal.status]}</span>{' '}
        <span class="goal-objective">{revealInvisible(goal.objective)}</span>
      </p>
      {goal.reason && goal.status !== 'active' ? (
        <p class="goal-reason">{revealInvisible(goal.reason)}</p>
      ) : null}
      <p class="goal-budgets">
        <span data-budget="turns">turns {use.turns}</span> ·{' '}
        <span data-budget="tokens">tokens {use.tokens}</span> ·{' '}
        <span data-budget="time">time {use.time}</span>
        {goal.check ? (
          <>
            {' '}
            · <span class="goal-check">check: {revealInvisible(goal.check)}</span>
          </>
        ) : null}
      </p>
    </section>
  );
}

const STATE_WORDS: Record<GoalState, string> = {
  active: 'Goal (active)',
  paused: 'Goal (paused)',
  blocked: 'Goal (blocked)',
  complete: 'Goal complete',
};
