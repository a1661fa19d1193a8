import { describe, expect, it } from 'vitest';
import { measureRepetition, repeatTier } from './repeat-detector.js';

describe('repeatTier (Kimi CLI thresholds)', () => {
  it.each([
    [1, null],
    [2, null],
    [3, 'r1'],
    [4, 'r1'],
    [5, 'r2'],
    [7, 'r2'],
    [8, 'r3'],
    [11, 'r3'],
    [12, 'stop'],
    [40, 'stop'],
  ])('streak %i → %s', (streak, tier) => {
    expect(repeatTier(streak)).toBe(tier);
  });
});

describe('measureRepetition', () => {
  const seq = (text: string): string[] => text.split('');
  it.each([
    ['', 4, 0, 1],
    ['A', 4, 1, 1],
    ['AAA', 1, 3, 1],
    ['BAAA', 1, 3, 1],
    ['AAAB', 1, 1, 1],
    ['ABABAB', 1, 1, 1],
    ['ABABAB', 2, 3, 2],
    ['ABABA', 2, 2, 2],
    ['AAAA', 4, 4, 1],
    ['ABCABCABC', 4, 3, 3],
    ['ABCDABCD', 4, 2, 4],
    ['ABCDEABCDE', 4, 1, 1],
    ['XABAB', 2, 2, 2],
  ])('%s with periods ≤ %i → %i repetitions of period %i', (text, maxPeriod, count, period) => {
    expect(measureRepetition(seq(text), maxPeriod)).toEqual({ count, period });
  });
});
