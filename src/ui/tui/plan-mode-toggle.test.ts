import { describe, expect, it } from 'vitest';
import { PlanModeToggle } from './plan-mode-toggle.js';

/** A session whose plan-mode switch takes a while, like the real one (it writes state.json). */
function slowSession() {
  const calls: boolean[] = [];
  const session = {
    planMode: false,
    async setPlanMode(enabled: boolean) {
      calls.push(enabled);
      await new Promise((resolve) => setImmediate(resolve));
      session.planMode = enabled;
    },
  };
  return { session, calls };
}

describe('Shift-Tab plan-mode toggle', () => {
  it('switches through the session and reports the state it ends in', async () => {
    const { session, calls } = slowSession();
    const seen: boolean[] = [];
    const toggle = new PlanModeToggle(
      session,
      (on) => seen.push(on),
      () => {},
    );
    expect(toggle.toggle()).toBe(true);
    await toggle.settled();
    expect(session.planMode).toBe(true);
    expect(toggle.toggle()).toBe(false);
    await toggle.settled();
    expect(calls).toEqual([true, false]);
    expect(seen).toEqual([true, false]);
  });

  it('counts every press, even before the switch of the one before is done', async () => {
    const { session, calls } = slowSession();
    const toggle = new PlanModeToggle(
      session,
      () => {},
      () => {},
    );
    toggle.toggle();
    toggle.toggle();
    toggle.toggle();
    await toggle.settled();
    expect(calls).toEqual([true, false, true]);
    expect(session.planMode).toBe(true);
  });

  it('reports a failed switch and starts the next press from the session state', async () => {
    const errors: unknown[] = [];
    const session = {
      planMode: false,
      setPlanMode: async () => {
        throw new Error('disk full');
      },
    };
    const toggle = new PlanModeToggle(
      session,
      () => {},
      (error) => errors.push(error),
    );
    toggle.toggle();
    await toggle.settled();
    expect(errors).toHaveLength(1);
    expect(toggle.toggle()).toBe(true);
    await toggle.settled();
  });
});
