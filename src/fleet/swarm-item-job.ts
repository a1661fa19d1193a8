import { z } from 'zod';
import { swarmItemEndSchema } from '../app/subagents/swarm-dispatch.js';
import { MAX_AGENT_SWARM_SUBAGENTS } from '../tools/agent/agent-swarm.js';

/** The job name of one item of a fleet turn's swarm (a child of the turn's job). */
export const SWARM_ITEM_JOB = 'swarm-item';

/**
 * One item of a swarm, as a child job of its turn's job. It carries ids only: what the item runs
 * and where comes from the swarm's record and the turn's own job (see swarm-record.ts).
 */
export const swarmItemJobSchema = z.strictObject({
  sessionId: z.uuid(),
  turn: z.int().positive(),
  swarm: z.string().regex(/^[0-9a-f]{32}$/),
  index: z.int().min(1).max(MAX_AGENT_SWARM_SUBAGENTS),
});
export type SwarmItemJob = z.infer<typeof swarmItemJobSchema>;

/** `swarm:<session>:<swarm key>-<index>` (BullMQ takes a custom id with exactly two `:`). */
export function swarmItemJobId(sessionId: string, swarmKey: string, index: number): string {
  return `swarm:${sessionId}:${swarmKey}-${index}`;
}

/** Whether `jobId` names a swarm item of `sessionId`'s turns. */
export function isSwarmItemJobOf(jobId: string, sessionId: string): boolean {
  const prefix = `swarm:${sessionId}:`;
  return jobId.startsWith(prefix) && /^[0-9a-f]{32}-[1-9]\d{0,2}$/.test(jobId.slice(prefix.length));
}

/** What a child job returns: how its item ended, or why it never started (a cancel). */
export const swarmItemResultSchema = z.union([
  z.strictObject({ end: swarmItemEndSchema() }),
  z.strictObject({ notStarted: z.string().max(10_000) }),
]);
export type SwarmItemResult = z.infer<typeof swarmItemResultSchema>;
