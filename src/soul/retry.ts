import { APIConnectionError, APIStatusError, APITimeoutError } from '../kosong/errors.js';
import type { ChatProvider } from '../kosong/provider.js';
import { classifyApiError, isRetryableError } from './errors.js';

/** Backoff of seed 002 §7: 0.3 s doubling, plus 0–0.5 s jitter, capped at 5 s. */
export const RETRY_INITIAL_MS = 300;
export const RETRY_MAX_MS = 5_000;
export const RETRY_JITTER_MS = 500;

export interface RetryInfo {
  /** The attempt that failed (1-based). */
  attempt: number;
  nextAttempt: number;
  maxAttempts: number;
  waitMs: number;
  error: unknown;
  errorType: string;
  statusCode: number | null;
}

export interface RetryOptions {
  maxAttempts: number;
  signal?: AbortSignal | undefined;
  /** Called before each wait, e.g. to send StepRetry. */
  onRetry?: ((info: RetryInfo) => void) | undefined;
  random?: () => number;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /**
   * Whose connection a transport failure (connection, timeout, stall) may have broken: it rebuilds
   * what it can (seed 002 §7.3) before the next attempt, which counts like any other.
   */
  provider?: ChatProvider | undefined;
}

export function backoffMs(failedAttempt: number, random: () => number = Math.random): number {
  const exponential = RETRY_INITIAL_MS * 2 ** (failedAttempt - 1);
  return Math.min(RETRY_MAX_MS, exponential + random() * RETRY_JITTER_MS);
}

/** The wait before the next attempt: the backoff, or the server's Retry-After if longer, within the cap. */
export function retryWaitMs(
  failedAttempt: number,
  error: unknown,
  random: () => number = Math.random,
): number {
  const backoff = backoffMs(failedAttempt, random);
  const asked = error instanceof APIStatusError ? error.retryAfterMs : null;
  return asked === null ? backoff : Math.min(RETRY_MAX_MS, Math.max(backoff, asked));
}

export function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * Runs `fn` up to `maxAttempts` times while its failures are retryable (seed 002 §7.2). Every kind of
 * retryable failure counts the same: `maxAttempts` is the number of requests, whether they failed
 * with a status, a broken connection or a stall (a reconnect happens between attempts, not as an
 * extra attempt of its own).
 */
export async function withRetry<T>(fn: (attempt: number) => Promise<T>, options: RetryOptions): Promise<T> {
  const { maxAttempts, signal, onRetry, random = Math.random, sleep = abortableSleep, provider } = options;
  for (let attempt = 1; ; attempt++) {
    try {
      return await fn(attempt);
    } catch (error) {
      if (attempt >= maxAttempts || !isRetryableError(error) || signal?.aborted) throw error;
      const waitMs = retryWaitMs(attempt, error, random);
      const { errorType, statusCode } = classifyApiError(error);
      onRetry?.({ attempt, nextAttempt: attempt + 1, maxAttempts, waitMs, error, errorType, statusCode });
      const isTransport = error instanceof APIConnectionError || error instanceof APITimeoutError;
      if (isTransport && provider?.onRetryableError)
        await provider.onRetryableError(error).catch(() => false);
      await sleep(waitMs, signal);
    }
  }
}

export interface RecoveryOptions {
  /** Forces an OAuth token refresh; absent for API-key providers (a 401 then fails at once). */
  refreshAuth?: (() => Promise<void>) | undefined;
}

/**
 * Seed 002 §7.3: inside one attempt, a 401 gets one OAuth refresh and one more try. (A broken
 * connection is not recovered here: `withRetry` reconnects between attempts, so that every
 * retryable failure counts against the same budget.)
 */
export async function withAuthRecovery<T>(fn: () => Promise<T>, options: RecoveryOptions): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    if (!(error instanceof APIStatusError && error.statusCode === 401 && options.refreshAuth)) throw error;
    await options.refreshAuth();
    return fn();
  }
}
