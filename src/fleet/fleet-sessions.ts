import type { Job } from 'bullmq';
import type { Redis } from 'ioredis';
import { z } from 'zod';
import { wireMessageToJSON } from '../wire/index.js';
import { type SessionEvent, tailSessionEvents } from './event-stream.js';
import { openTurnQueue } from './fleet-queue.js';
import { readSessionCosts } from './session-cost.js';
import { type TurnJob, turnJobSchema } from './turn-job.js';

/** Where a session of the fleet is, by the state of its latest turn's job. */
export type FleetSessionState = 'waiting' | 'running' | 'parked' | 'done' | 'failed';

export interface FleetSession {
  sessionId: string;
  /** The latest turn submitted. */
  turn: number;
  workDir: string;
  /** The first prompt seen (of the latest turn when the first is no longer kept). */
  prompt: string;
  state: FleetSessionState;
  /** The worker running the latest turn, or the last one that took it; null before any took it. */
  worker: string | null;
  /** Tokens in the session's context at its last status update, when one was streamed. */
  tokens: number | null;
  /** What its turns cost, in dollars at the workers' prices; null ("n/a") when a model had no price. */
  cost: number | null;
  /** When the latest turn's job last changed (ms since the epoch). */
  updatedAt: number;
}

const JOB_STATES = [
  'waiting',
  'prioritized',
  'active',
  'delayed',
  'waiting-children',
  'completed',
  'failed',
] as const;
/** How many jobs of each state are read for the list (finished ones are kept up to 10,000). */
const MAX_JOBS_PER_STATE = 1000;
/** How far back a session's stream is read for its worker and tokens. */
const TAIL_ENTRIES = 200;

/** The fleet's sessions, newest first: from the turn queue's jobs, plus each one's stream tail. */
export async function listFleetSessions(redis: Redis): Promise<FleetSession[]> {
  const queue = await openTurnQueue(redis);
  const latest = new Map<string, { job: Job; data: TurnJob; state: FleetSessionState }>();
  const first = new Map<string, TurnJob>();
  try {
    for (const jobState of JOB_STATES) {
      const jobs = await queue.getJobs([jobState], 0, MAX_JOBS_PER_STATE - 1);
      for (const job of jobs) {
        const parsed = turnJobSchema.safeParse(job?.data);
        if (!job || !parsed.success) continue;
        const data = parsed.data;
        const known = latest.get(data.sessionId);
        if (known === undefined || known.data.turn < data.turn)
          latest.set(data.sessionId, { job, data, state: stateOf(jobState) });
        const earliest = first.get(data.sessionId);
        if (earliest === undefined || earliest.turn > data.turn) first.set(data.sessionId, data);
      }
    }
  } finally {
    await queue.close();
  }
  const costs = await readSessionCosts(redis, [...latest.keys()]);
  const sessions = await Promise.all(
    [...latest.values()].map(async ({ job, data, state }) => {
      const tail = await tailSessionEvents(redis, data.sessionId, TAIL_ENTRIES).catch(() => []);
      return {
        sessionId: data.sessionId,
        turn: data.turn,
        workDir: data.workDir,
        prompt: first.get(data.sessionId)?.prompt ?? data.prompt,
        state,
        worker: (state === 'running' ? job.processedBy : undefined) ?? lastWorker(tail),
        tokens: lastTokens(tail),
        cost: costs.get(data.sessionId) ?? null,
        updatedAt: Math.max(job.timestamp, job.processedOn ?? 0, job.finishedOn ?? 0),
      } satisfies FleetSession;
    }),
  );
  return sessions.sort((a, b) => b.updatedAt - a.updatedAt);
}

function stateOf(jobState: (typeof JOB_STATES)[number]): FleetSessionState {
  switch (jobState) {
    case 'waiting':
    case 'prioritized':
      return 'waiting';
    case 'active':
      return 'running';
    case 'delayed':
    // A turn waiting for its swarm's items holds no worker, as a parked one.
    case 'waiting-children':
      return 'parked';
    case 'completed':
      return 'done';
    case 'failed':
      return 'failed';
  }
}

/** `tail` is newest first. */
function lastWorker(tail: SessionEvent[]): string | null {
  for (const event of tail) if (event.kind === 'attempt') return event.worker;
  return null;
}

const contextTokens = z.looseObject({ context_tokens: z.int().nonnegative() });

function lastTokens(tail: SessionEvent[]): number | null {
  for (const event of tail) {
    if (event.kind !== 'wire') continue;
    const envelope = wireMessageToJSON(event.message) as { type?: unknown; payload?: unknown };
    if (envelope.type !== 'StatusUpdate') continue;
    const status = contextTokens.safeParse(envelope.payload);
    if (status.success) return status.data.context_tokens;
  }
  return null;
}
