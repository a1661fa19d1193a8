import { describe, expect, it } from 'vitest';
import { AnswerGuard, ARM_DELAY_MS } from './answer-guard.js';

function guardAt() {
  let now = 1_000;
  const guard = new AnswerGuard(() => now);
  return { guard, advance: (ms: number) => (now += ms) };
}

describe('AnswerGuard', () => {
  it('no key counts before the panel has focus, however long it is shown', () => {
    const { guard, advance } = guardAt();
    advance(ARM_DELAY_MS * 10);
    expect(guard.admitKey('1', true)).toBe(false);
    expect(guard.clickCounts()).toBe(true);
  });

  it('keys count once it has been shown and focused for the delay', () => {
    const { guard, advance } = guardAt();
    guard.focusEntered();
    advance(ARM_DELAY_MS - 1);
    expect(guard.admitKey('1', true)).toBe(false);
    advance(ARM_DELAY_MS); // the dropped key started the delay again
    expect(guard.admitKey('1', true)).toBe(true);
  });

  it('typing in flight: Enter and Space wait for a move between choices; numbers still pick', () => {
    const { guard, advance } = guardAt();
    guard.focusEntered();
    for (const key of 'hello world') {
      advance(60);
      expect(guard.admitKey(key, key === ' ')).toBe(false);
    }
    advance(ARM_DELAY_MS);
    expect(guard.admitKey(' ', true)).toBe(false);
    expect(guard.admitClick(false)).toBe(false); // the click the browser makes from that Space
    expect(guard.admitKey('Enter', true)).toBe(false);
    guard.focusMoved(); // Tab to another choice
    expect(guard.admitKey('Enter', true)).toBe(true);
    expect(guard.admitClick(false)).toBe(true);
    expect(guard.admitKey('3', true)).toBe(true);
  });

  it('letters typed after it is armed are typing: the Space after them does not answer', () => {
    const { guard, advance } = guardAt();
    guard.focusEntered();
    advance(ARM_DELAY_MS * 5);
    expect(guard.admitKey('a', false)).toBe(false);
    advance(ARM_DELAY_MS);
    expect(guard.admitKey(' ', true)).toBe(false);
    expect(guard.admitKey('1', true)).toBe(true);
  });

  it('a pointer click counts once the panel has been shown for the delay', () => {
    const { guard, advance } = guardAt();
    expect(guard.admitClick(true)).toBe(false);
    advance(ARM_DELAY_MS);
    expect(guard.admitClick(true)).toBe(true);
  });
});
