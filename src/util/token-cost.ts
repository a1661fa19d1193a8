/**
 * What tokens cost, for the terminal UI's status line, the web page's status bar and a fleet
 * worker's count of a session's cost alike (one function, so all show the same figure). Pure: no Node, no DOM, so the page's
 * bundle can import it.
 */

/** A model's prices in US dollars per million tokens (`[models.x] price = {input, output, cache_read}`). */
export interface ModelPrice {
  input: number;
  output: number;
  /** Input read from the provider's cache; the input price when absent. */
  cache_read?: number | undefined;
}

/** Token counts as a StatusUpdate's `token_usage` carries them (one step, or summed over many). */
export interface TokenCounts {
  input_other: number;
  input_cache_read: number;
  input_cache_creation: number;
  output: number;
}

export const NO_TOKENS: TokenCounts = {
  input_other: 0,
  input_cache_read: 0,
  input_cache_creation: 0,
  output: 0,
};

/** The cost in dollars of `usage` at `price`: cache writes are billed as input, cache reads at their own price. */
export function tokenCost(price: ModelPrice, usage: TokenCounts): number {
  const { input, output, cache_read = input } = price;
  return (
    ((usage.input_other + usage.input_cache_creation) * input +
      usage.input_cache_read * cache_read +
      usage.output * output) /
    1_000_000
  );
}

/** Sums two counts (absent fields of a partial usage count as 0). */
export function addTokens(total: TokenCounts, usage: Partial<TokenCounts>): TokenCounts {
  return {
    input_other: total.input_other + (usage.input_other ?? 0),
    input_cache_read: total.input_cache_read + (usage.input_cache_read ?? 0),
    input_cache_creation: total.input_cache_creation + (usage.input_cache_creation ?? 0),
    output: total.output + (usage.output ?? 0),
  };
}

/** Subagents of subagents are forwarded wrapped once per level; deeper than this is not unwrapped. */
const MAX_SUBAGENT_DEPTH = 8;

/**
 * The token usage one step of a subagent reports: the `token_usage` of the StatusUpdate a
 * SubagentEvent carries (a subagent's own subagents' too, wrapped once per level), or null for any
 * other message. Subagents spend on the session's account, so its totals count them; their context
 * numbers are their own and stay out. The shape is checked (the page reads it from JSON): counts
 * that are not finite and ≥ 0 give null.
 */
export function subagentStepUsage(message: {
  readonly type: unknown;
  readonly payload: unknown;
}): TokenCounts | null {
  let event: unknown = message;
  let depth = 0;
  while (isRecord(event) && event.type === 'SubagentEvent' && depth < MAX_SUBAGENT_DEPTH) {
    event = isRecord(event.payload) ? event.payload.event : undefined;
    depth++;
  }
  if (depth === 0 || !isRecord(event) || event.type !== 'StatusUpdate' || !isRecord(event.payload))
    return null;
  const usage = event.payload.token_usage;
  if (!isRecord(usage)) return null;
  const count = (value: unknown, optional: boolean): number | null =>
    value === undefined && optional
      ? 0
      : typeof value === 'number' && Number.isFinite(value) && value >= 0
        ? value
        : null;
  const counts = {
    input_other: count(usage.input_other, false),
    input_cache_read: count(usage.input_cache_read, true),
    input_cache_creation: count(usage.input_cache_creation, true),
    output: count(usage.output, false),
  };
  const { input_other, input_cache_read, input_cache_creation, output } = counts;
  if (input_other === null || input_cache_read === null || input_cache_creation === null || output === null)
    return null;
  return { input_other, input_cache_read, input_cache_creation, output };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

/** 0.01234 → `$0.0123`, 1.5 → `$1.50`. */
export function formatDollars(amount: number): string {
  return `$${amount < 1 ? amount.toFixed(4) : amount.toFixed(2)}`;
}

/** A price as the config may hold it, checked (finite, not negative), or null: untrusted JSON on the page. */
export function parsePrice(value: unknown): ModelPrice | null {
  if (value === null || typeof value !== 'object') return null;
  const { input, output, cache_read } = value as Record<string, unknown>;
  const ok = (n: unknown): n is number => typeof n === 'number' && Number.isFinite(n) && n >= 0;
  if (!ok(input) || !ok(output)) return null;
  return cache_read === undefined || cache_read === null
    ? { input, output }
    : ok(cache_read)
      ? { input, output, cache_read }
      : null;
}
