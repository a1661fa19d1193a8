import { randomInt } from 'node:crypto';
import { z } from 'zod';

/** Faults that are not an HTTP status. */
export const CHAOS_FAULT_KINDS = [
  'connection',
  'timeout',
  'empty',
  'think_only',
  'cut',
  'cut_after_text',
  'cut_after_call',
  'cut_mid_arguments',
  'stall',
] as const;
export type ChaosFaultKind = (typeof CHAOS_FAULT_KINDS)[number];

/** A fault to inject: one of the kinds, or an HTTP error status written as a string (`'429'`). */
export type ChaosFault = ChaosFaultKind | `${number}`;

export interface ChaosOptions {
  /** Same seed and same sequence of calls ⇒ same faults. Default: a random seed (read it back from the provider). */
  seed?: number | undefined;
  /** Probability per call of each fault, e.g. `{ '429': 0.1, connection: 0.05 }`; together at most 1. */
  rates: Partial<Record<ChaosFault, number>>;
  /** Retry-After carried by injected HTTP errors, in milliseconds (default none). */
  retryAfterMs?: number | null | undefined;
  /**
   * A `cut` lets through between 1 and this many parts of the real stream, a `stall` between 0 and
   * this many before it goes silent (default 8). `cut_after_text`, `cut_after_call` and
   * `cut_mid_arguments` break the real stream at that point; a `stall` lasts until the request is
   * aborted (a stall watchdog or the caller).
   */
  maxPartsBeforeCut?: number | undefined;
}

/** Options checked and put in a fixed order, so the same options always draw the same way. */
export interface ChaosPlan {
  seed: number;
  faults: { fault: ChaosFault; rate: number }[];
  retryAfterMs: number | null;
  maxPartsBeforeCut: number;
}

export class ChaosConfigError extends Error {
  override name = 'ChaosConfigError';
}

const DEFAULT_MAX_PARTS_BEFORE_CUT = 8;

export function planChaos(options: ChaosOptions): ChaosPlan {
  const seed = options.seed ?? randomInt(0x1_0000_0000);
  if (!Number.isSafeInteger(seed)) throw new ChaosConfigError(`Chaos seed must be an integer, got ${seed}.`);
  const faults: ChaosPlan['faults'] = [];
  let total = 0;
  for (const [fault, rate] of Object.entries(options.rates)) {
    if (!isChaosFault(fault)) {
      throw new ChaosConfigError(
        `Unknown chaos fault '${fault}': use an HTTP status 400-599 or one of ${CHAOS_FAULT_KINDS.join(', ')}.`,
      );
    }
    if (typeof rate !== 'number' || !(rate >= 0 && rate <= 1)) {
      throw new ChaosConfigError(`Chaos rate of '${fault}' must be between 0 and 1, got ${rate}.`);
    }
    total += rate;
    if (rate > 0) faults.push({ fault, rate });
  }
  if (total > 1 + 1e-9)
    throw new ChaosConfigError(`Chaos rates add up to ${total}; they must add up to at most 1.`);
  faults.sort((a, b) => faultOrder(a.fault) - faultOrder(b.fault));

  const retryAfterMs = options.retryAfterMs ?? null;
  if (retryAfterMs !== null && !(retryAfterMs >= 0)) {
    throw new ChaosConfigError(`Chaos retry-after must be at least 0 ms, got ${retryAfterMs}.`);
  }
  const maxPartsBeforeCut = options.maxPartsBeforeCut ?? DEFAULT_MAX_PARTS_BEFORE_CUT;
  if (!Number.isInteger(maxPartsBeforeCut) || maxPartsBeforeCut < 1) {
    throw new ChaosConfigError(
      `Chaos maxPartsBeforeCut must be a positive integer, got ${maxPartsBeforeCut}.`,
    );
  }
  return { seed, faults, retryAfterMs, maxPartsBeforeCut };
}

export function isChaosFault(value: string): value is ChaosFault {
  if ((CHAOS_FAULT_KINDS as readonly string[]).includes(value)) return true;
  return /^\d{3}$/.test(value) && Number(value) >= 400 && Number(value) <= 599;
}

/** HTTP statuses first (ascending), then the other kinds in their listed order. */
function faultOrder(fault: ChaosFault): number {
  const kindIndex = (CHAOS_FAULT_KINDS as readonly string[]).indexOf(fault);
  return kindIndex >= 0 ? 1000 + kindIndex : Number(fault);
}

const envSchema = z.object({
  CHAOS_ERROR_PROBABILITY: z.coerce.number().min(0).max(1).default(0.3),
  CHAOS_ERROR_TYPES: z.string().default('429,500,502,503'),
  CHAOS_SEED: z.coerce.number().int().optional(),
  CHAOS_RETRY_AFTER: z.coerce.number().min(0).default(2),
});

/**
 * Reads chaos settings in the environment form Kimi CLI uses: a total probability
 * (`CHAOS_ERROR_PROBABILITY`, default 0.3) shared evenly by the faults of `CHAOS_ERROR_TYPES`
 * (comma list, default `429,500,502,503`), `CHAOS_SEED`, and `CHAOS_RETRY_AFTER` in seconds
 * (default 2). Empty variables count as unset.
 */
export function chaosOptionsFromEnv(env: Record<string, string | undefined>): ChaosOptions {
  const present = Object.fromEntries(
    Object.keys(envSchema.shape).flatMap((key) => (env[key]?.trim() ? [[key, env[key]?.trim()]] : [])),
  );
  const parsed = envSchema.safeParse(present);
  if (!parsed.success) {
    const problems = parsed.error.issues
      .map((issue) => `${issue.path.join('.')}: ${issue.message}`)
      .join('; ');
    throw new ChaosConfigError(`Invalid chaos settings: ${problems}`);
  }
  const settings = parsed.data;
  const types = [
    ...new Set(settings.CHAOS_ERROR_TYPES.split(',').map((type) => type.trim().toLowerCase())),
  ].filter((type) => type !== '');
  if (types.length === 0)
    throw new ChaosConfigError('Invalid chaos settings: CHAOS_ERROR_TYPES lists no fault.');
  const rates: Partial<Record<ChaosFault, number>> = {};
  for (const type of types) {
    if (!isChaosFault(type)) {
      throw new ChaosConfigError(
        `Invalid chaos settings: CHAOS_ERROR_TYPES has '${type}'; use HTTP statuses 400-599 or ${CHAOS_FAULT_KINDS.join(', ')}.`,
      );
    }
    rates[type] = settings.CHAOS_ERROR_PROBABILITY / types.length;
  }
  return { seed: settings.CHAOS_SEED, rates, retryAfterMs: settings.CHAOS_RETRY_AFTER * 1000 };
}
