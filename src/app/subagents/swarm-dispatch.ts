import { z } from 'zod';
import type { SubagentIsolation } from '../../tools/runtime.js';
import type { RunContext } from '../../toolset/run-scope.js';
import { builtOnFirstUse } from '../../util/built-on-first-use.js';
import type { ApprovalRequest } from '../../wire/requests.js';
import type { SubagentRunOutcome } from './subagent-run-outcome.js';

/**
 * A swarm whose items run elsewhere (a fleet turn: each item a child job any worker may take). The
 * swarm's checks are done; what is sent is what each item needs to run as a local swarm runs it.
 */
export interface DispatchedSwarm {
  description: string;
  subagentType: string;
  model: string | null;
  items: readonly { item: string; prompt: string }[];
  isolation: SubagentIsolation;
  /** The cap the local swarm would use (the model's, under the config's). */
  concurrency: number;
  /** The AgentSwarm call: its items' events are shown under it. */
  parentToolCallId: string;
  signal: AbortSignal;
}

/** One item as it ended elsewhere; null outcome: it never started (`notStarted` says why). */
export interface DispatchedItem {
  outcome: SubagentRunOutcome | null;
  notStarted: string | null;
}

/**
 * Runs a swarm's items elsewhere and answers with their ends, in item order, and the swarm's id (the
 * one its branches are named by). It may instead stop the call for good (throw): a fleet turn parks
 * until its children have ended and redoes the step, whose same call then finds them.
 */
export type SwarmDispatch = (swarm: DispatchedSwarm) => Promise<{ swarmId: string; items: DispatchedItem[] }>;

/** One item of a dispatched swarm, run where it was taken (a fleet worker's child job). */
export interface SwarmItemRun {
  swarmId: string;
  /** 1-based, as the report and the branch `kimi-ts/<owner>/<index>` name it. */
  index: number;
  /**
   * Whose branch an isolated item works on: the swarm's id, or for an item taken over from a worker
   * that died (whose worktree and branch may still be there) an id of the attempt's own.
   */
  branchOwner: string;
  description: string;
  subagentType: string;
  model: string | null;
  prompt: string;
  isolation: SubagentIsolation;
  /** The AgentSwarm call the item's events are shown under. */
  parentToolCallId: string;
  signal: AbortSignal;
  /**
   * Where the item's approval requests go (a fleet worker parks the item for `fleet approve`);
   * absent: nobody can answer, and each is refused with the reason.
   */
  onApprovalRequest?: ((request: ApprovalRequest) => void) | undefined;
  /** The run the item's events go to (its wire); absent: the caller's current wire, if any. */
  parentRun?: RunContext | undefined;
}

/**
 * The session's hand-offs between a swarm and whoever runs its items elsewhere: `dispatch`, set by a
 * fleet turn (null: swarms run here, as always), and `runItem`, set by the subagent runner so a
 * fleet worker can run one item of another worker's swarm in this session.
 */
export class SwarmSlot {
  dispatch: SwarmDispatch | null = null;
  runItem: ((run: SwarmItemRun) => Promise<SwarmItemRan>) | null = null;
}

/** How an item run elsewhere went: its outcome, or why it did not start (the goal's budget spent). */
export type SwarmItemRan = SubagentRunOutcome | { notStarted: string };

/** What an item's end may hold when it crosses a process boundary (bounded: it comes back from Redis). */
const TEXT_LIMIT = 1024 * 1024;
/** Built on first use: only a fleet's swarm items read it, and this module loads in every session. */
export const swarmItemEndSchema = builtOnFirstUse(() =>
  z.strictObject({
    agentId: z.string().max(64).nullable(),
    status: z.enum(['completed', 'failed']),
    answer: z.string().max(TEXT_LIMIT).nullable(),
    message: z.string().max(TEXT_LIMIT),
    isolated: z.boolean(),
    branch: z.string().max(200).nullable(),
    diffStat: z.string().max(TEXT_LIMIT),
    worktreeError: z.string().max(TEXT_LIMIT).nullable(),
  }),
);
export type SwarmItemEnd = z.infer<ReturnType<typeof swarmItemEndSchema>>;

export function itemEndOf(outcome: SubagentRunOutcome): SwarmItemEnd {
  const clip = (text: string) =>
    text.length > TEXT_LIMIT ? `${text.slice(0, TEXT_LIMIT - 20)}\n[truncated]` : text;
  return {
    agentId: outcome.agentId,
    status: outcome.status,
    answer: outcome.answer === null ? null : clip(outcome.answer),
    message: clip(outcome.result.message),
    isolated: outcome.isolated,
    branch: outcome.branch,
    diffStat: clip(outcome.diffStat),
    worktreeError: outcome.worktreeError === null ? null : clip(outcome.worktreeError),
  };
}

export function outcomeOfItemEnd(end: SwarmItemEnd): SubagentRunOutcome {
  return {
    agentId: end.agentId,
    status: end.status,
    answer: end.answer,
    result: { isError: end.status === 'failed', output: end.answer ?? '', message: end.message, brief: '' },
    isolated: end.isolated,
    branch: end.branch,
    diffStat: end.diffStat,
    worktreeError: end.worktreeError,
  };
}

/** An item that ran elsewhere and failed before the subagent could say anything (its job failed). */
export function failedItemEnd(message: string): SwarmItemEnd {
  return {
    agentId: null,
    status: 'failed',
    answer: null,
    message,
    isolated: false,
    branch: null,
    diffStat: '',
    worktreeError: null,
  };
}
