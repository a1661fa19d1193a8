import { describe, expect, it } from 'vitest';
import { SeededRandom } from './seeded-random.js';

const take = (random: SeededRandom, n: number): number[] => Array.from({ length: n }, () => random.next());

describe('SeededRandom', () => {
  it('repeats its sequence for a seed and differs between seeds', () => {
    expect(take(new SeededRandom(42), 50)).toEqual(take(new SeededRandom(42), 50));
    expect(take(new SeededRandom(42), 50)).not.toEqual(take(new SeededRandom(43), 50));
  });

  it('draws numbers in [0, 1) that spread over the range', () => {
    const values = take(new SeededRandom(7), 10_000);
    expect(values.every((value) => value >= 0 && value < 1)).toBe(true);
    const mean = values.reduce((sum, value) => sum + value, 0) / values.length;
    expect(mean).toBeGreaterThan(0.45);
    expect(mean).toBeLessThan(0.55);
    const lowHalf = values.filter((value) => value < 0.5).length;
    expect(lowHalf).toBeGreaterThan(4_500);
    expect(lowHalf).toBeLessThan(5_500);
  });

  it('clones at the current position; the clone then runs on its own', () => {
    const random = new SeededRandom(1);
    random.next();
    const copy = random.clone();
    expect(take(copy, 5)).toEqual(take(random, 5));
  });

  it('rejects a seed that is not an integer', () => {
    expect(() => new SeededRandom(1.5)).toThrow(RangeError);
  });
});
