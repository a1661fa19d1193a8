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

describe('ArmDelay: typing in flight', () => {
  it('a key before it is armed is dropped and starts the delay again', () => {
    let now = 0;
    const arm = new ArmDelay(() => now);
    expect(arm.admit()).toBe(false); // before the first frame
    arm.markShown();
    now += ARM_DELAY_MS - 10;
    expect(arm.admit()).toBe(false); // still typing
    now += ARM_DELAY_MS - 10;
    expect(arm.isArmed).toBe(false);
    expect(arm.admit()).toBe(false); // the Enter that ends the typed line
    now += ARM_DELAY_MS;
    expect(arm.isArmed).toBe(true);
    expect(arm.admit()).toBe(true);
    expect(arm.typedInFlight).toBe(true);
  });

  it('a panel nobody typed at is armed after the delay, with nothing typed in flight', () => {
    let now = 0;
    const arm = new ArmDelay(() => now);
    arm.markShown();
    now += ARM_DELAY_MS;
    expect(arm.admit()).toBe(true);
    expect(arm.typedInFlight).toBe(false);
  });
});
