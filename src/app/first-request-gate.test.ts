import { afterEach, describe, expect, it, vi } from 'vitest';
import { FirstRequestGate } from './first-request-gate.js';

/** Whether `promise` has settled once the current microtasks have run. */
async function isSettled(promise: Promise<unknown>): Promise<boolean> {
  let settled = false;
  void promise.then(() => {
    settled = true;
  });
  await Promise.resolve();
  await Promise.resolve();
  return settled;
}

describe('FirstRequestGate', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('stays shut until a model answer begins, then opens on the next turn of the event loop', async () => {
    const gate = new FirstRequestGate();
    expect(await isSettled(gate.opened)).toBe(false);
    gate.responseStarted();
    // Not within the answer's own tick: what arrived with it is handled first.
    expect(await isSettled(gate.opened)).toBe(false);
    await new Promise((resolve) => setImmediate(resolve));
    expect(await isSettled(gate.opened)).toBe(true);
  });

  it('opens at once when something needs the deferred work now, and opening again changes nothing', async () => {
    const gate = new FirstRequestGate();
    gate.open();
    gate.open();
    gate.responseStarted();
    expect(await isSettled(gate.opened)).toBe(true);
  });

  it('opens after the fallback when no request comes (an interactive session waiting for a prompt)', async () => {
    vi.useFakeTimers();
    const gate = new FirstRequestGate(3000);
    vi.advanceTimersByTime(2999);
    expect(await isSettled(gate.opened)).toBe(false);
    vi.advanceTimersByTime(1);
    expect(await isSettled(gate.opened)).toBe(true);
  });
});
