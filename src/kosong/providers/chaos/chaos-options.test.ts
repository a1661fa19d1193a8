import { describe, expect, it } from 'vitest';
import { ChaosConfigError, chaosOptionsFromEnv, planChaos } from './chaos-options.js';

describe('planChaos', () => {
  it('orders faults the same way whatever the key order, dropping zero rates', () => {
    const plan = planChaos({
      seed: 1,
      rates: { cut: 0.1, '503': 0.1, connection: 0.2, '429': 0.1, empty: 0 },
    });
    expect(plan.faults.map((entry) => entry.fault)).toEqual(['429', '503', 'connection', 'cut']);
    expect(plan).toMatchObject({ seed: 1, retryAfterMs: null, maxPartsBeforeCut: 8 });
  });

  it('picks a random integer seed when none is given', () => {
    expect(Number.isInteger(planChaos({ rates: {} }).seed)).toBe(true);
  });

  it.each([
    [{ rates: { teapot: 0.1 } }, /Unknown chaos fault 'teapot'/],
    [{ rates: { '200': 0.1 } }, /Unknown chaos fault '200'/],
    [{ rates: { '429': 1.5 } }, /between 0 and 1/],
    [{ rates: { '429': 0.6, connection: 0.6 } }, /add up to 1.2/],
    [{ rates: {}, retryAfterMs: -1 }, /retry-after/],
    [{ rates: {}, maxPartsBeforeCut: 0 }, /maxPartsBeforeCut/],
    [{ rates: {}, seed: 0.5 }, /seed must be an integer/],
  ])('rejects %j', (options, message) => {
    expect(() => planChaos(options as Parameters<typeof planChaos>[0])).toThrow(message);
  });
});

describe('chaosOptionsFromEnv', () => {
  it('uses Kimi CLI defaults when nothing is set', () => {
    expect(chaosOptionsFromEnv({})).toEqual({
      seed: undefined,
      rates: { '429': 0.075, '500': 0.075, '502': 0.075, '503': 0.075 },
      retryAfterMs: 2000,
    });
  });

  it('shares the probability evenly among the listed faults', () => {
    const options = chaosOptionsFromEnv({
      CHAOS_ERROR_PROBABILITY: '0.5',
      CHAOS_ERROR_TYPES: '429, connection,TIMEOUT,empty,think_only,cut,429',
      CHAOS_SEED: '1234',
      CHAOS_RETRY_AFTER: '0.25',
    });
    expect(options.seed).toBe(1234);
    expect(options.retryAfterMs).toBe(250);
    expect(Object.keys(options.rates)).toEqual([
      '429',
      'connection',
      'timeout',
      'empty',
      'think_only',
      'cut',
    ]);
    expect(Object.values(options.rates).every((rate) => Math.abs((rate ?? 0) - 0.5 / 6) < 1e-12)).toBe(true);
  });

  it.each([
    [{ CHAOS_ERROR_PROBABILITY: '2' }, /CHAOS_ERROR_PROBABILITY/],
    [{ CHAOS_ERROR_PROBABILITY: 'often' }, /CHAOS_ERROR_PROBABILITY/],
    [{ CHAOS_SEED: '1.5' }, /CHAOS_SEED/],
    [{ CHAOS_RETRY_AFTER: '-1' }, /CHAOS_RETRY_AFTER/],
    [{ CHAOS_ERROR_TYPES: '429,gremlins' }, /CHAOS_ERROR_TYPES has 'gremlins'/],
    [{ CHAOS_ERROR_TYPES: ' , ' }, /lists no fault/],
  ])('rejects %j', (env, message) => {
    let caught: unknown;
    try {
      chaosOptionsFromEnv(env);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ChaosConfigError);
    expect((caught as Error).message).toMatch(message);
  });
});
