import { describe, expect, it } from 'vitest';
import { addTokens, formatDollars, NO_TOKENS, parsePrice, tokenCost } from './token-cost.js';

describe('tokenCost', () => {
  it('bills cache writes as input and cache reads at their own price (the input price by default)', () => {
    const usage = {
      input_other: 100_000,
      input_cache_creation: 50_000,
      input_cache_read: 200_000,
      output: 10_000,
    };
    expect(tokenCost({ input: 2, output: 10, cache_read: 0.5 }, usage)).toBeCloseTo(0.3 + 0.1 + 0.1);
    expect(tokenCost({ input: 2, output: 10 }, usage)).toBeCloseTo(0.3 + 0.4 + 0.1);
  });

  it('summed usage costs what the steps cost one by one', () => {
    const price = { input: 2.5, output: 10, cache_read: 0.25 };
    const steps = [
      { input_other: 1234, input_cache_read: 99, input_cache_creation: 7, output: 321 },
      { input_other: 5, input_cache_read: 40_000, input_cache_creation: 0, output: 12 },
    ];
    const one = steps.reduce((sum, step) => sum + tokenCost(price, step), 0);
    const total = steps.reduce(addTokens, NO_TOKENS);
    expect(formatDollars(tokenCost(price, total))).toBe(formatDollars(one));
  });

  it('formats like the status line: four decimals under a dollar, two above', () => {
    expect(formatDollars(0.01234)).toBe('$0.0123');
    expect(formatDollars(1.5)).toBe('$1.50');
  });

  it('parsePrice takes only finite, non-negative numbers (the page reads it from JSON)', () => {
    expect(parsePrice({ input: 1, output: 2 })).toEqual({ input: 1, output: 2 });
    expect(parsePrice({ input: 1, output: 2, cache_read: 0.1 })).toEqual({
      input: 1,
      output: 2,
      cache_read: 0.1,
    });
    for (const bad of [
      null,
      'x',
      {},
      { input: '1', output: 2 },
      { input: -1, output: 2 },
      { input: 1, output: 2, cache_read: 'x' },
    ])
      expect(parsePrice(bad)).toBeNull();
    expect(parsePrice({ input: Number.POSITIVE_INFINITY, output: 1 })).toBeNull();
  });
});
