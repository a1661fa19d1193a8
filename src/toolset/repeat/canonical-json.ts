import { createHash } from 'node:crypto';

/**
 * The canonical form of tool arguments used as a dedup key and shown in repeat reminders: keys sorted
 * recursively, compact separators, non-ASCII kept as is — the same text Python's
 * `json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)` produces for it,
 * so keys and hashes agree with Kimi CLI's telemetry.
 */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeysDeep(value)) ?? 'null';
}

function sortKeysDeep(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeysDeep);
  if (value !== null && typeof value === 'object') {
    const sorted: Record<string, unknown> = {};
    for (const key of Object.keys(value).sort(compareCodePoints)) {
      sorted[key] = sortKeysDeep((value as Record<string, unknown>)[key]);
    }
    return sorted;
  }
  return value;
}

/** Python sorts strings by code point; JS's default sort compares UTF-16 units, which differs above U+FFFF. */
function compareCodePoints(a: string, b: string): number {
  const left = [...a];
  const right = [...b];
  const length = Math.min(left.length, right.length);
  for (let i = 0; i < length; i++) {
    const diff = left[i]!.codePointAt(0)! - right[i]!.codePointAt(0)!;
    if (diff !== 0) return diff;
  }
  return left.length - right.length;
}

/** Every string collapsed to single spaces and trimmed, so a re-spaced command counts as the same call. */
export function normaliseWhitespace(value: unknown): unknown {
  if (typeof value === 'string') return value.replace(/\s+/g, ' ').trim();
  if (Array.isArray(value)) return value.map(normaliseWhitespace);
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) out[key] = normaliseWhitespace(item);
    return out;
  }
  return value;
}

/** First 8 hex digits of the SHA-256 of a canonical argument string (Kimi CLI's telemetry `args_hash`). */
export function argumentsHash(canonicalArguments: string): string {
  return createHash('sha256').update(canonicalArguments, 'utf8').digest('hex').slice(0, 8);
}
