import type { Redis } from 'ioredis';
import { z } from 'zod';
import {
  type ModelPrice,
  parsePrice,
  subagentStepUsage,
  type TokenCounts,
  tokenCost,
} from '../util/token-cost.js';
import { type WireMessage, wireMessageToJSON } from '../wire/index.js';
import { sessionCostKey } from './fleet-keys.js';
import type { FleetSession } from './job-session.js';

const stepUsage = z.looseObject({
  token_usage: z.looseObject({
    input_other: z.number().nonnegative(),
    output: z.number().nonnegative(),
    input_cache_read: z.number().nonnegative().optional(),
    input_cache_creation: z.number().nonnegative().optional(),
  }),
});

/**
 * Counts what a turn's steps cost into the session's total in Redis, at the price the worker's own
 * config gives the session's model (dollars only: the price and the config stay on the worker).
 * Usage without a price marks the total unpriced: the list says "n/a" rather than a figure too low.
 * A step redone after a takeover counts again: its tokens were spent again.
 */
export class SessionCostMeter {
  private pending: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly redis: Redis,
    private readonly sessionId: string,
    private readonly price: ModelPrice | null,
  ) {}

  /**
   * Takes a wire message of the turn (or of a swarm item): a StatusUpdate with a step's token usage
   * adds its cost, and so does a subagent's, which reaches the wire inside a SubagentEvent (it runs
   * on the session's model, at its price).
   */
  offer(message: WireMessage): void {
    const envelope = wireMessageToJSON(message) as { type: unknown; payload: unknown };
    const usage = sessionStepUsage(envelope) ?? subagentStepUsage(envelope);
    if (usage === null) return;
    const key = sessionCostKey(this.sessionId);
    const price = this.price;
    this.pending = this.pending
      .then(
        (): Promise<unknown> =>
          price === null
            ? this.redis.hset(key, 'unpriced', '1')
            : this.redis.hincrbyfloat(key, 'dollars', tokenCost(price, usage)),
      )
      .catch(() => undefined);
  }

  /** Resolves when every cost offered so far is counted (or given up). */
  settled(): Promise<unknown> {
    return this.pending;
  }
}

/** The token usage of one of the session's own steps (a StatusUpdate that carries it), or null. */
function sessionStepUsage(envelope: { type: unknown; payload: unknown }): TokenCounts | null {
  if (envelope.type !== 'StatusUpdate') return null;
  const step = stepUsage.safeParse(envelope.payload);
  if (!step.success) return null;
  const usage = step.data.token_usage;
  return {
    input_other: usage.input_other,
    input_cache_read: usage.input_cache_read ?? 0,
    input_cache_creation: usage.input_cache_creation ?? 0,
    output: usage.output,
  };
}

/**
 * The price the worker's config gives the session's current model (`[models.x] price`), or the
 * model `alias` names (a swarm started on another model); null when it has none.
 */
export function priceOfSession(
  session: Pick<FleetSession, 'models' | 'config'>,
  alias: string | null = null,
): ModelPrice | null {
  const model = alias ?? session.models().find((m) => m.current)?.alias;
  return model === undefined ? null : parsePrice(session.config.models[model]?.price);
}

/**
 * The sessions' costs in dollars as the workers counted them; null ("n/a") for a session with usage
 * that had no price, or with nothing counted. Whatever Redis holds is checked (a finite amount ≥ 0).
 */
export async function readSessionCosts(
  redis: Redis,
  sessionIds: readonly string[],
): Promise<Map<string, number | null>> {
  const costs = new Map<string, number | null>();
  await Promise.all(
    sessionIds.map(async (id) => {
      const fields = await redis.hmget(sessionCostKey(id), 'dollars', 'unpriced').catch(() => [null, null]);
      const dollars = Number(fields[0]);
      const ok = fields[0] !== null && fields[1] === null && Number.isFinite(dollars) && dollars >= 0;
      costs.set(id, ok ? dollars : null);
    }),
  );
  return costs;
}
