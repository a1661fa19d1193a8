import { describe, expect, it } from 'vitest';
import type { GoalSnapshot } from '../common/goal-line.js';
import { applyGoalUpdate } from './status-goal.js';
import { emptyStatus, formatStatus, StatusLineView, withJobStarted } from './status-line.js';
import { tuiStyle } from './tui-style.js';

function goal(overrides: Partial<GoalSnapshot> = {}): GoalSnapshot {
  return {
    id: 'goal-1',
    objective: 'fix the build',
    status: 'active',
    check: null,
    reason: null,
    turns_used: 1,
    tokens_used: 1234,
    elapsed_ms: 12_000,
    max_turns: 5,
    max_tokens: null,
    max_time_ms: 30 * 60_000,
    ...overrides,
  };
}

describe('status line: the goal', () => {
  it('shows state, objective and turns / tokens / time against their budgets; the clock runs while active', () => {
    const shown = applyGoalUpdate(null, { goal: goal() }, 1000);
    const facts = { ...emptyStatus('m'), goal: shown };
    expect(formatStatus(facts, 1000)).toBe(
      'm · goal active: fix the build · turns 1/5 · tokens 1.2k/∞ · time 0:12/30:00 · ↑0 ↓0 · cost n/a',
    );
    expect(formatStatus(facts, 4000)).toContain('time 0:15/30:00');
    const paused = applyGoalUpdate(shown, { goal: goal({ status: 'paused', reason: 'Interrupted.' }) }, 1000);
    // A paused goal's clock stands still.
    expect(formatStatus({ ...facts, goal: paused }, 60_000)).toContain('goal paused: fix the build');
    expect(formatStatus({ ...facts, goal: paused }, 60_000)).toContain('time 0:12/30:00');
  });

  it('keeps a completed goal until the next job starts; a cleared one goes at once', () => {
    let shown = applyGoalUpdate(null, { goal: goal() }, 0);
    shown = applyGoalUpdate(shown, { goal: goal({ status: 'complete' }) }, 0);
    shown = applyGoalUpdate(shown, { goal: null }, 0);
    const facts = { ...emptyStatus('m'), goal: shown };
    expect(formatStatus(facts, 0)).toContain('goal complete: fix the build');
    expect(withJobStarted(facts).goal).toBeNull();
    // A paused goal stays through a new job; a cleared one is gone.
    const paused = { ...facts, goal: applyGoalUpdate(null, { goal: goal({ status: 'paused' }) }, 0) };
    expect(withJobStarted(paused).goal?.goal.status).toBe('paused');
    expect(applyGoalUpdate(paused.goal, { goal: null }, 0)).toBeNull();
  });

  it('cuts a long objective and reveals control and invisible characters in it', () => {
    const hostile = `clear\x1b[2J\x1b]0;owned\x07 it${'\u200b'.repeat(30)}then\u202eevil ${'x'.repeat(80)}`;
    const shown = applyGoalUpdate(null, { goal: goal({ objective: hostile }) }, 0);
    const facts = { ...emptyStatus('m'), goal: shown };
    const text = formatStatus(facts, 0);
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what must not show
    expect(text).not.toMatch(/[\x00-\x1f\x7f\u200b\u202e]/);
    expect(text).toContain('␛[2J');
    expect(text).toMatch(/⟨U\+200B ×\d+⟩/);
    expect(text).not.toContain('x'.repeat(40));
    const view = new StatusLineView(tuiStyle(false, undefined), 'm');
    view.facts = facts;
    const [line] = view.render(400);
    expect(line).not.toContain('\x1b]');
    expect(line).not.toContain('\x1b[2J');
    expect(line).not.toContain('\x07');
  });
});
