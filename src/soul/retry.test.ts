import { describe, expect, it } from 'vitest';
import { APIConnectionError, APIStatusError, APITimeoutError } from '../kosong/errors.js';
import type { ChatProvider } from '../kosong/provider.js';
import { backoffMs, type RetryInfo, retryWaitMs, withConnectionRecovery, withRetry } from './retry.js';

const noSleep = async () => {};

describe('backoff', () => {
  it('doubles from 0.3 s, adds up to 0.5 s jitter and caps at 5 s', () => {
    expect(backoffMs(1, () => 0)).toBe(300);
    expect(backoffMs(2, () => 0)).toBe(600);
    expect(backoffMs(3, () => 1)).toBe(1700);
    expect(backoffMs(10, () => 1)).toBe(5000);
  });

  it('honours Retry-After within the cap', () => {
    expect(retryWaitMs(1, new APIStatusError('x', 429, null, 2000), () => 0)).toBe(2000);
    expect(retryWaitMs(1, new APIStatusError('x', 429, null, 60_000), () => 0)).toBe(5000);
    expect(retryWaitMs(3, new APIStatusError('x', 429, null, 10), () => 0)).toBe(1200);
  });
});

describe('withRetry', () => {
  it('retries retryable errors and reports each retry', async () => {
    const retries: RetryInfo[] = [];
    let calls = 0;
    const result = await withRetry(
      async () => {
        calls++;
        if (calls < 3) throw new APIStatusError('busy', 429);
        return 'ok';
      },
      { maxAttempts: 3, onRetry: (r) => retries.push(r), sleep: noSleep, random: () => 0 },
    );
    expect(result).toBe('ok');
    expect(
      retries.map((r) => [r.attempt, r.nextAttempt, r.maxAttempts, r.waitMs, r.errorType, r.statusCode]),
    ).toEqual([
      [1, 2, 3, 300, 'rate_limit', 429],
      [2, 3, 3, 600, 'rate_limit', 429],
    ]);
  });

  it('gives up after max attempts (attempts, not retries)', async () => {
    let calls = 0;
    await expect(
      withRetry(
        async () => {
          calls++;
          throw new APIStatusError('busy', 503);
        },
        { maxAttempts: 3, sleep: noSleep },
      ),
    ).rejects.toThrow('busy');
    expect(calls).toBe(3);
  });

  it('does not retry a permanent error', async () => {
    let calls = 0;
    await expect(
      withRetry(
        async () => {
          calls++;
          throw new APIStatusError('bad key', 401);
        },
        { maxAttempts: 3, sleep: noSleep },
      ),
    ).rejects.toThrow('bad key');
    expect(calls).toBe(1);
  });

  it('stops waiting when aborted', async () => {
    const controller = new AbortController();
    const promise = withRetry(
      async () => {
        throw new APIStatusError('busy', 429);
      },
      { maxAttempts: 3, signal: controller.signal, onRetry: () => controller.abort(new Error('cancelled')) },
    );
    await expect(promise).rejects.toThrow('cancelled');
  });
});

function providerWithRecovery(recover: boolean): ChatProvider & { recoveries: number } {
  return {
    name: 'p',
    modelName: 'm',
    thinkingEffort: null,
    recoveries: 0,
    withThinking() {
      return this;
    },
    generate: () => Promise.reject(new Error('unused')),
    async onRetryableError() {
      this.recoveries++;
      return recover;
    },
  };
}

describe('withConnectionRecovery', () => {
  it('reconnects once after a connection error', async () => {
    const provider = providerWithRecovery(true);
    let calls = 0;
    const result = await withConnectionRecovery(
      async () => {
        if (++calls === 1) throw new APIConnectionError('reset');
        return 'ok';
      },
      { provider },
    );
    expect(result).toBe('ok');
    expect(provider.recoveries).toBe(1);
  });

  it('marks the error exhausted when the reconnect does not help, which stops retries', async () => {
    const provider = providerWithRecovery(true);
    let calls = 0;
    const run = () =>
      withConnectionRecovery(
        async () => {
          calls++;
          throw new APITimeoutError('slow');
        },
        { provider },
      );
    const error = await run().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(APITimeoutError);
    expect((error as APITimeoutError).recoveryExhausted).toBe(true);
    calls = 0;
    await expect(withRetry(run, { maxAttempts: 3, sleep: noSleep })).rejects.toThrow('slow');
    expect(calls).toBe(2); // one attempt: the call and its reconnect; no further retries
  });

  it('refreshes auth once on 401, and composes with reconnect', async () => {
    const provider = providerWithRecovery(true);
    let refreshes = 0;
    const errors = [new APIConnectionError('reset'), new APIStatusError('expired', 401)];
    const result = await withConnectionRecovery(
      async () => {
        const next = errors.shift();
        if (next) throw next;
        return 'ok';
      },
      {
        provider,
        refreshAuth: async () => {
          refreshes++;
        },
      },
    );
    expect(result).toBe('ok');
    expect([provider.recoveries, refreshes]).toEqual([1, 1]);
  });

  it('fails at once on 401 without an OAuth refresher', async () => {
    const provider = providerWithRecovery(true);
    await expect(
      withConnectionRecovery(() => Promise.reject(new APIStatusError('no', 401)), { provider }),
    ).rejects.toThrow('no');
  });
});
