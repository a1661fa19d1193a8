import { afterEach, describe, expect, it, vi } from 'vitest';
import { ARM_DELAY_MS, ArmDelay } from './arm-delay.js';

describe('ArmDelay', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('counts from the first frame, not from when the panel was made (a late first frame under load)', () => {
    vi.useFakeTimers();
    const arm = new ArmDelay(() => Date.now());
    const armed = vi.fn();
    arm.onArmed = armed;
    vi.advanceTimersByTime(ARM_DELAY_MS * 3); // the first frame comes late
    expect(arm.isArmed).toBe(false);
    expect(armed).not.toHaveBeenCalled();
    arm.markShown();
    vi.advanceTimersByTime(ARM_DELAY_MS - 1);
    expect(arm.isArmed).toBe(false);
    vi.advanceTimersByTime(20);
    expect(arm.isArmed).toBe(true);
    expect(armed).toHaveBeenCalledTimes(1);
    arm.markShown(); // later frames change nothing
    vi.advanceTimersByTime(ARM_DELAY_MS * 2);
    expect(armed).toHaveBeenCalledTimes(1);
  });
});
