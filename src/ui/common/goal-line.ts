import type { WireEventOf } from '../../wire/events.js';

type GoalPayload = WireEventOf<'GoalUpdated'>['payload'];

const OBJECTIVE_CHARS = 60;

/**
 * The goal as one line for a front end: `goal: <objective> — <state> · turns a/b`, or the goal's
 * end. Untrusted text: the caller sanitises it for its terminal or page.
 */
export function goalLineText(payload: GoalPayload): string {
  const { goal } = payload;
  if (!goal) return 'goal: none';
  const chars = [...goal.objective.replace(/\s+/g, ' ')];
  const objective =
    chars.length > OBJECTIVE_CHARS ? `${chars.slice(0, OBJECTIVE_CHARS - 1).join('')}…` : chars.join('');
  const reason = goal.reason && goal.status !== 'active' ? ` (${goal.reason})` : '';
  return `goal: ${objective} — ${goal.status}${reason} · turns ${goal.turns_used}/${goal.max_turns ?? '∞'}`;
}
