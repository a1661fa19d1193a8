import { describe, expect, it } from 'vitest';
import { APIConnectionError, APIStatusError, APITimeoutError } from '../kosong/errors.js';
import type { ChatProvider } from '../kosong/provider.js';
import { backoffMs, type RetryInfo, retryWaitMs, withAuthRecovery, withRetry } from './retry.js';

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

describe('reconnects between attempts', () => {
  it('reconnects after a connection error, and the next try counts as an attempt', async () => {
    const provider = providerWithRecovery(true);
    const retries: RetryInfo[] = [];
    let calls = 0;
    const result = await withRetry(
      async () => {
        if (++calls === 1) throw new APIConnectionError('reset');
        return 'ok';
      },
      { maxAttempts: 3, provider, sleep: noSleep, onRetry: (r) => retries.push(r) },
    );
    expect(result).toBe('ok');
    expect(provider.recoveries).toBe(1);
    expect(retries.map((r) => [r.nextAttempt, r.errorType])).toEqual([[2, 'network']]);
  });

  it.each([
    ['HTTP 500', () => new APIStatusError('busy', 500)],
    ['a connection error', () => new APIConnectionError('reset')],
    ['a timeout (stall)', () => new APITimeoutError('silent')],
  ])('counts %s against the same budget: max attempts = requests', async (_kind, makeError) => {
    for (const maxAttempts of [1, 2, 3]) {
      let calls = 0;
      await expect(
        withRetry(
          async () => {
            calls++;
            throw makeError();
          },
          { maxAttempts, provider: providerWithRecovery(true), sleep: noSleep },
        ),
      ).rejects.toThrow();
      expect(calls).toBe(maxAttempts);
    }
  });

  it('does not ask the provider to reconnect after a status error', async () => {
    const provider = providerWithRecovery(true);
    await expect(
      withRetry(() => Promise.reject(new APIStatusError('busy', 503)), {
        maxAttempts: 2,
        provider,
        sleep: noSleep,
      }),
    ).rejects.toThrow('busy');
    expect(provider.recoveries).toBe(0);
  });
});

describe('withAuthRecovery', () => {
  it('refreshes auth once on 401 and tries again', async () => {
    let refreshes = 0;
    const errors = [new APIStatusError('expired', 401)];
    const result = await withAuthRecovery(
      async () => {
        const next = errors.shift();
        if (next) throw next;
        return 'ok';
      },
      {
        refreshAuth: async () => {
          refreshes++;
        },
      },
    );
    expect(result).toBe('ok');
    expect(refreshes).toBe(1);
  });

  it('fails at once on 401 without an OAuth refresher', async () => {
    await expect(withAuthRecovery(() => Promise.reject(new APIStatusError('no', 401)), {})).rejects.toThrow(
      'no',
    );
  });
});
