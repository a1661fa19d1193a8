import { describe, expect, it } from 'vitest';
import {
  addTokens,
  formatDollars,
  NO_TOKENS,
  parsePrice,
  subagentStepUsage,
  tokenCost,
} from './token-cost.js';

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

describe('subagentStepUsage', () => {
  const status = (token_usage: unknown) => ({
    type: 'StatusUpdate',
    payload: { context_usage: 0.9, token_usage },
  });
  const wrapped = (event: unknown) => ({
    type: 'SubagentEvent',
    payload: { parent_tool_call_id: 'c1', agent_id: 'a1', subagent_type: 'coder', event },
  });

  it("reads a subagent step's usage, its subagents' too, and nothing else", () => {
    const usage = { input_other: 10, output: 5, input_cache_read: 2, input_cache_creation: 1 };
    expect(subagentStepUsage(wrapped(status(usage)))).toEqual(usage);
    expect(subagentStepUsage(wrapped(wrapped(status({ input_other: 3, output: 4 }))))).toEqual({
      input_other: 3,
      input_cache_read: 0,
      input_cache_creation: 0,
      output: 4,
    });
    // The session's own step is counted where StatusUpdates are: not here.
    expect(subagentStepUsage(status(usage))).toBeNull();
    expect(
      subagentStepUsage(wrapped({ type: 'ContentPart', payload: { type: 'text', text: 'x' } })),
    ).toBeNull();
    expect(subagentStepUsage(wrapped(status(undefined)))).toBeNull();
  });

  it('gives null for counts that are not finite and ≥ 0, or a shape that is not one', () => {
    for (const bad of [
      { input_other: -1, output: 1 },
      { input_other: 1, output: Number.POSITIVE_INFINITY },
      { input_other: '1', output: 1 },
      { input_other: 1, output: 1, input_cache_read: null },
      null,
      'x',
    ])
      expect(subagentStepUsage(wrapped(status(bad)))).toBeNull();
    expect(subagentStepUsage({ type: 'SubagentEvent', payload: null })).toBeNull();
    let deep: unknown = status({ input_other: 1, output: 1 });
    for (let i = 0; i < 20; i++) deep = wrapped(deep);
    expect(subagentStepUsage(deep as { type: unknown; payload: unknown })).toBeNull();
  });
});
