import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import { z } from 'zod';
import type { DispatchedSwarm } from '../app/subagents/swarm-dispatch.js';
import { MAX_AGENT_SWARM_SUBAGENTS } from '../tools/agent/agent-swarm.js';
import { swarmRecordKey } from './fleet-keys.js';

/**
 * What a fleet turn's swarm handed out: each item's prompt and how it runs. The child jobs carry only
 * the session, the turn, this record's key and their index: a worker reads the rest here (written
 * by the turn's worker before any child was queued), so a child planted in Redis runs nothing the
 * session's swarm does not hold, in no work dir but the turn's own.
 */
const MAX_PROMPT_CHARS = 1024 * 1024;
/** A whole record (every prompt of one swarm): past it the swarm is refused before anything is queued. */
export const MAX_SWARM_RECORD_BYTES = 16 * 1024 * 1024;
/** How long a record outlives its swarm (a redone step finds its children's ends meanwhile). */
const RECORD_TTL_S = 7 * 24 * 3600;

export const swarmRecordSchema = z.strictObject({
  /** The parent turn job. */
  jobId: z.string().min(1),
  swarmId: z.string().regex(/^s[0-9a-f]{8}$/),
  description: z.string().max(MAX_PROMPT_CHARS),
  subagentType: z.string().min(1).max(200),
  model: z.string().min(1).max(200).nullable(),
  isolation: z.enum(['none', 'worktree']),
  /** The AgentSwarm call (its items' events are shown under it). */
  toolCallId: z.string().min(1).max(200),
  /** How many items run at once (the local swarm's cap). */
  concurrency: z.int().min(1).max(MAX_AGENT_SWARM_SUBAGENTS),
  items: z
    .array(
      z.strictObject({
        item: z.string().max(MAX_PROMPT_CHARS),
        prompt: z.string().min(1).max(MAX_PROMPT_CHARS),
      }),
    )
    .min(1)
    .max(MAX_AGENT_SWARM_SUBAGENTS),
});
export type SwarmRecord = z.infer<typeof swarmRecordSchema>;

/**
 * The key of one swarm call: the turn's job, where in the history the step that called it starts
 * (nothing of a step is committed before it ends, so its redo starts at the same place) and what it
 * asks. The redone step's same call finds its children's ends; a call in a later step, or one that
 * asks anything else, is another swarm.
 */
export function swarmKeyOf(jobId: string, historyAt: number, swarm: DispatchedSwarm): string {
  const asked = JSON.stringify([
    jobId,
    historyAt,
    swarm.description,
    swarm.subagentType,
    swarm.model,
    swarm.isolation,
    swarm.concurrency,
    swarm.items.map(({ item, prompt }) => [item, prompt]),
  ]);
  return createHash('sha256').update(asked).digest('hex').slice(0, 32);
}

/** Writes the record unless the same swarm already has one; false: it had. */
export async function recordSwarm(
  redis: Redis,
  sessionId: string,
  swarmKey: string,
  record: SwarmRecord,
): Promise<boolean> {
  if (
    record.items.some(
      ({ item, prompt }) => item.length > MAX_PROMPT_CHARS || prompt.length > MAX_PROMPT_CHARS,
    )
  )
    throw new Error(
      `An item's prompt is too large to hand out (over ${MAX_PROMPT_CHARS / 1024 / 1024} MiB).`,
    );
  const text = JSON.stringify(swarmRecordSchema.parse(record));
  if (Buffer.byteLength(text) > MAX_SWARM_RECORD_BYTES)
    throw new Error(
      `The swarm's prompts are too large to hand out (over ${MAX_SWARM_RECORD_BYTES / 1024 / 1024} MiB together).`,
    );
  return (await redis.set(swarmRecordKey(sessionId, swarmKey), text, 'EX', RECORD_TTL_S, 'NX')) === 'OK';
}

/** The session's swarm of this key, or null (none, or not one kimi-ts wrote). */
export async function readSwarmRecord(
  redis: Redis,
  sessionId: string,
  swarmKey: string,
): Promise<SwarmRecord | null> {
  const key = swarmRecordKey(sessionId, swarmKey);
  const size = await redis.strlen(key);
  if (size === 0 || size > MAX_SWARM_RECORD_BYTES) return null;
  const text = await redis.get(key);
  if (text === null) return null;
  try {
    return swarmRecordSchema.parse(JSON.parse(text));
  } catch {
    return null;
  }
}
