import type { WireEventOf } from '../../wire/events.js';

type GoalPayload = WireEventOf<'GoalUpdated'>['payload'];
/** The goal as a `GoalUpdated` event tells it (null: none). */
export type GoalSnapshot = NonNullable<GoalPayload['goal']>;
export type GoalState = GoalSnapshot['status'];

const OBJECTIVE_CHARS = 60;

/**
 * The objective on one line, cut to `max` characters (whole code points, so a cut never splits a
 * surrogate pair). Untrusted text: the caller sanitises it for its terminal or page.
 */
export function shortObjective(objective: string, max = OBJECTIVE_CHARS): string {
  // Only ASCII white space folds: Unicode blanks stay, for the front end to reveal.
  const chars = [...objective.replace(/[\t\n\v\f\r ]+/g, ' ').trim()];
  return chars.length > max ? `${chars.slice(0, Math.max(1, max - 1)).join('')}…` : chars.join('');
}

/**
 * The goal as one line for a front end: `goal: <objective> — <state> · turns a/b`, or the goal's
 * end. Untrusted text: the caller sanitises it for its terminal or page.
 */
export function goalLineText(payload: GoalPayload): string {
  const { goal } = payload;
  if (!goal) return 'goal: none';
  const reason = goal.reason && goal.status !== 'active' ? ` (${goal.reason})` : '';
  return `goal: ${shortObjective(goal.objective)} — ${goal.status}${reason} · turns ${goal.turns_used}/${goal.max_turns ?? '∞'}`;
}

/** What a goal has used against its budgets, one label each: turns, tokens, time (∞: no budget). */
export interface GoalBudgetUse {
  turns: string;
  tokens: string;
  time: string;
}

/** `elapsedMs`: the time used as of now (an active goal's clock runs between two events). */
export function goalBudgetUse(goal: GoalSnapshot, elapsedMs = goal.elapsed_ms): GoalBudgetUse {
  return {
    turns: `${goal.turns_used}/${goal.max_turns ?? '∞'}`,
    tokens: `${tokenCount(goal.tokens_used)}/${goal.max_tokens === null ? '∞' : tokenCount(goal.max_tokens)}`,
    time: `${clock(elapsedMs)}/${goal.max_time_ms === null ? '∞' : clock(goal.max_time_ms)}`,
  };
}

/**
 * The time a goal has been active as of `now`, for a snapshot received at `receivedAt`: an active
 * goal's clock runs on between events; any other state's stands still.
 */
export function goalElapsedAt(goal: GoalSnapshot, receivedAt: number, now: number): number {
  return goal.status === 'active' ? goal.elapsed_ms + Math.max(0, now - receivedAt) : goal.elapsed_ms;
}

/** `turns 1/5 · tokens 1.2k/∞ · time 0:12/30:00`. */
export function goalBudgetText(goal: GoalSnapshot, elapsedMs = goal.elapsed_ms): string {
  const use = goalBudgetUse(goal, elapsedMs);
  return `turns ${use.turns} · tokens ${use.tokens} · time ${use.time}`;
}

/** 31234 → `31.2k`. */
function tokenCount(count: number): string {
  if (count < 1000) return String(count);
  if (count < 1_000_000) return `${(count / 1000).toFixed(1)}k`;
  return `${(count / 1_000_000).toFixed(1)}M`;
}

/** `0:07`, `12:05`, `1:02:03`. */
function clock(ms: number): string {
  const total = Math.max(0, Math.floor(ms / 1000));
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = String(total % 60).padStart(2, '0');
  return hours > 0 ? `${hours}:${String(minutes).padStart(2, '0')}:${seconds}` : `${minutes}:${seconds}`;
}

/**
 * The goal a front end shows after a `GoalUpdated`. `complete` is transient (the book clears the
 * goal right after saying so): the completed goal stays shown until the next turn begins, so the
 * person sees how it ended; a cleared goal goes at once.
 */
export function goalAfterUpdate(shown: GoalSnapshot | null, payload: GoalPayload): GoalSnapshot | null {
  if (payload.goal) return payload.goal;
  return shown?.status === 'complete' ? shown : null;
}

/** A new turn begins: a completed goal has been seen long enough. */
export function goalAtTurnBegin(shown: GoalSnapshot | null): GoalSnapshot | null {
  return shown?.status === 'complete' ? null : shown;
}
