import type { CronExpression } from './cron-expression.js';

/**
 * Kimi Code's anti-herd jitter, deterministic per job id (so a resumed session fires when it said it
 * would): a recurring fire moves later by at most 10% of its period and 15 minutes; a one-shot that
 * lands exactly on :00 or :30 moves earlier by at most 90 s (never before it was created).
 */
export const RECURRING_JITTER_FRACTION = 0.1;
export const RECURRING_JITTER_MAX_MS = 15 * 60_000;
export const ONE_SHOT_JITTER_MAX_MS = 90_000;

const DAY_MS = 24 * 3600_000;

/** A fraction in [0, 1) from the job id. */
export function jitterFraction(id: string): number {
  if (/^[0-9a-f]{8}$/i.test(id)) return Number.parseInt(id, 16) / 0x1_0000_0000;
  let hash = 5381;
  for (let i = 0; i < id.length; i++) hash = ((hash << 5) + hash + id.charCodeAt(i)) | 0;
  return (hash >>> 0) / 0x1_0000_0000;
}

export function recurringJitterMs(id: string, expression: CronExpression, idealMs: number): number {
  const after = expression.nextAfter(idealMs);
  const period = after !== null && after > idealMs ? after - idealMs : DAY_MS;
  const cap = Math.min(period * RECURRING_JITTER_FRACTION, RECURRING_JITTER_MAX_MS);
  return Math.floor(cap * jitterFraction(id));
}

export function oneShotJitterMs(id: string, idealMs: number, createdAt: number): number {
  const minute = new Date(idealMs).getMinutes();
  if (idealMs % 60_000 !== 0 || (minute !== 0 && minute !== 30)) return 0;
  const offset = -Math.floor(ONE_SHOT_JITTER_MAX_MS * jitterFraction(id));
  return idealMs + offset < createdAt ? 0 : offset;
}
