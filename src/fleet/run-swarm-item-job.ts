import type { Job } from 'bullmq';
import type { Redis } from 'ioredis';
import type { SwarmItemRan } from '../app/subagents/swarm-dispatch.js';
import { failedItemEnd, itemEndOf } from '../app/subagents/swarm-dispatch.js';
import { sanitizeForTerminal } from '../util/sanitize-terminal.js';
import type { ApprovalRequest } from '../wire/requests.js';
import { appendItemSessionEvent } from './event-stream.js';
import { cancelFlagKey, jobKey } from './fleet-keys.js';
import { openTurnQueue } from './fleet-queue.js';
import { ItemApprovalGate } from './item-approvals.js';
import { withItemEvents } from './item-events.js';
import type { SwarmItemSession } from './job-session.js';
import { parkedApprovals } from './parked-approvals.js';
import { priceOfSession, SessionCostMeter } from './session-cost.js';
import { loadSessionFromStore, type SessionPartFiles } from './session-mirror.js';
import { type SwarmItemResult, swarmItemJobId, swarmItemJobSchema } from './swarm-item-job.js';
import { queueNextSwarmItem } from './swarm-item-queue.js';
import { readSwarmRecord } from './swarm-record.js';
import type { TurnCancels } from './turn-cancels.js';
import { turnEndOf } from './turn-end.js';
import { type TurnJob, turnJobId, turnJobSchema } from './turn-job.js';

export interface SwarmItemRunner {
  redis: Redis;
  /** Opens the turn's session to run one item in it: it writes nothing of the session's own files. */
  openItem: (job: TurnJob) => Promise<SwarmItemSession>;
  files: (job: TurnJob) => SessionPartFiles;
  /** A `--repo` session's item: checks out the session's worktree here first (its branch on the remote). */
  prepare?: (job: TurnJob) => Promise<void>;
  /** A `--repo` session's item: pushes the item's branch back to the remote. */
  pushBranch?: (job: TurnJob, branch: string) => Promise<void>;
  /** The worker's `--label`: an item of a session pinned to another label is not run here. */
  label?: string | undefined;
  /** Parks the job (BullMQ's moveToDelayed + DelayedError). */
  park: (job: Job, token: string, delayMs: number) => Promise<Error>;
  /** Wakes a parked job now (BullMQ's promote). */
  wake: (job: Job) => Promise<void>;
  signal: AbortSignal;
  cancels: TurnCancels;
  log: (line: string) => void;
  unrecoverable: (message: string) => Error;
}

/** How long an item parked for an approval stays parked unless answered (which wakes it). */
const APPROVAL_PARK_MS = 7 * 24 * 3600 * 1000;

/** How long an item pinned to another label waits, parked, before a worker looks at it again. */
const PINNED_RETRY_MS = 250;

/** A write of the session's own files from an item's worker: never (the turn's worker holds the session). */
async function refuseSessionWrites(): Promise<void> {
  throw new Error("A swarm item's worker writes nothing of its session's history, event log or state.");
}

/**
 * Runs one item of a fleet turn's swarm, taken from the queue by any worker: checks that it is one
 * (its id, its parent the session's turn job, its swarm recorded by that turn), then runs the item
 * as a local swarm does (a subagent, in its own worktree when the swarm isolates) in the turn's
 * session, and returns how it ended. A cancel of the session stops it (or it never starts); any
 * other failure is the item's, given back as a failed item. Nothing but the subagent's own folder
 * and worktree is written.
 */
export async function runSwarmItemJob(
  runner: SwarmItemRunner,
  job: Job,
  token: string | undefined,
): Promise<SwarmItemResult> {
  const parsed = swarmItemJobSchema.safeParse(job.data);
  if (
    !parsed.success ||
    job.id !== swarmItemJobId(parsed.data.sessionId, parsed.data.swarm, parsed.data.index)
  )
    throw runner.unrecoverable('Not a swarm item of kimi-ts.');
  const { sessionId, turn, swarm, index } = parsed.data;
  const parentId = turnJobId(sessionId, turn);
  // The queue itself says whose child it is: a job planted without its turn as parent is not one.
  if (job.parentKey !== jobKey(parentId))
    throw runner.unrecoverable('Not a child of its turn: nothing was run.');
  const record = await readSwarmRecord(runner.redis, sessionId, swarm);
  const item = record?.items[index - 1];
  if (record === null || record.jobId !== parentId || item === undefined)
    throw runner.unrecoverable('No swarm of this session handed out this item: nothing was run.');
  const queue = await openTurnQueue(runner.redis);
  let parent: TurnJob;
  try {
    const parentJob = await queue.getJob(parentId);
    const parentData = turnJobSchema.safeParse(parentJob?.data);
    if (!parentData.success || parentData.data.sessionId !== sessionId || parentData.data.turn !== turn)
      throw runner.unrecoverable(
        'The turn of this swarm item is not a turn job of kimi-ts: nothing was run.',
      );
    parent = parentData.data;
  } finally {
    await queue.close();
  }
  // Pinned to other workers (the machine with the work dir): parked for a moment, for one of them.
  if (parent.label !== undefined && parent.label !== runner.label && token !== undefined)
    throw await runner.park(job, token, PINNED_RETRY_MS);
  // As it ends, the item queues the swarm's next one (before its own job completes).
  const window = {
    sessionId,
    turn,
    swarmKey: swarm,
    items: record.items.length,
    concurrency: record.concurrency,
  };
  const ended = async (result: SwarmItemResult): Promise<SwarmItemResult> => {
    // A worker that lost the item (its lock, Redis) leaves its end and the next item to the one that took it.
    if (runner.signal.aborted) throw runner.signal.reason;
    await queueNextSwarmItem(runner.redis, window).catch((error: unknown) => {
      runner.log(`${job.id}: the swarm's next item was not queued: ${turnEndOf(error).error}`);
    });
    return result;
  };
  // A cancel of the session (its flag stays for the turn to take) stops items not yet started.
  if ((await runner.redis.exists(cancelFlagKey(sessionId))) > 0) {
    // An approval it was parked for is not asked any more.
    await parkedApprovals.dropPendingOf(runner.redis, sessionId, job.id);
    return ended({ notStarted: 'The session was cancelled before this item ran (or before it ran again).' });
  }
  const attempt = Math.max(1, job.attemptsStarted);
  const branchOwner = attempt > 1 ? `${record.swarmId}r${attempt}` : record.swarmId;
  const cancel = runner.cancels.watch(sessionId, runner.signal);
  // With `--ask`, an approval the item needs parks it (holding no worker) for `fleet approve`.
  const approvals =
    parent.ask === true && token !== undefined
      ? new ItemApprovalGate(
          runner.redis,
          sessionId,
          job.id,
          { index, swarmId: record.swarmId, branchOwner },
          () => cancel.abort(),
        )
      : null;
  try {
    if (parent.repo) await runner.prepare?.(parent);
    await loadSessionFromStore(runner.redis, sessionId, runner.files(parent));
    const session = await runner.openItem(parent);
    let outcome: SwarmItemRan;
    try {
      session.setWriteFence(refuseSessionWrites);
      const events = { sessionId, turn, parentJobId: parentId, jobId: job.id, token };
      // The item's steps cost on the session's account, at the price of the model it runs on.
      const cost = new SessionCostMeter(runner.redis, sessionId, priceOfSession(session, record.model));
      outcome = await withItemEvents(
        runner.redis,
        events,
        (itemRun) =>
          session.runSwarmItem({
            swarmId: record.swarmId,
            index,
            // A redo (a takeover, an answered approval) works on a branch of its own: the earlier
            // attempt's worktree (committed and removed when it stopped, or when the turn's session
            // opens again on that machine after its worker died) keeps the one it had.
            branchOwner,
            description: `${record.description} #${index}`,
            subagentType: record.subagentType,
            model: record.model,
            prompt: item.prompt,
            // A `--repo` session's items run isolated: their work comes back as their branches.
            isolation: parent.repo ? 'worktree' : record.isolation,
            parentToolCallId: record.toolCallId,
            parentRun: itemRun,
            signal: cancel.signal,
            ...(approvals
              ? {
                  onApprovalRequest: (request: ApprovalRequest) =>
                    void approvals.handle(request).catch(() => cancel.abort()),
                }
              : {}),
          }),
        cost,
      );
    } finally {
      await session.close().catch(() => undefined);
    }
    if ('notStarted' in outcome) return await ended({ notStarted: outcome.notStarted });
    if (parent.repo && outcome.branch !== null) await runner.pushBranch?.(parent, outcome.branch);
    runner.log(`${job.id}: item ${index} ${outcome.status}`);
    return await ended({ end: itemEndOf(outcome) });
  } catch (error) {
    // The worker stopped (Redis gone) or lost the item's lock: another worker runs it; this one says nothing.
    if (runner.signal.aborted) throw runner.signal.reason;
    if (approvals?.parked && token !== undefined) throw await parkItem(runner, job, token, approvals, turn);
    if (cancel.signal.aborted)
      return await ended({ end: failedItemEnd('Cancelled: the session was cancelled while this item ran.') });
    const why = sanitizeForTerminal(turnEndOf(error).error);
    runner.log(`${job.id}: item ${index} failed: ${why}`);
    return await ended({ end: failedItemEnd(why) });
  } finally {
    cancel.done();
  }
}

/**
 * The item stopped for an approval (its worktree committed and removed as at any stop): says so in
 * the session's stream (fenced by the turn holding the session and this item's lock), and parks
 * its job until `fleet approve` wakes it, or wakes it now when the answer came first.
 */
async function parkItem(
  runner: SwarmItemRunner,
  job: Job,
  token: string,
  approvals: ItemApprovalGate,
  turn: number,
): Promise<Error> {
  const asked = approvals.parked as NonNullable<ItemApprovalGate['parked']>;
  const { sessionId } = swarmItemJobSchema.parse(job.data);
  await appendItemSessionEvent(
    runner.redis,
    sessionId,
    { parentJobId: turnJobId(sessionId, turn), jobId: job.id as string, token },
    { kind: 'parked', turn, waits: 'approval', action: asked.action, description: asked.description },
  ).catch(() => null);
  runner.log(`parked ${job.id} for an approval: ${asked.action}`);
  const parked = await runner.park(job, token, APPROVAL_PARK_MS);
  if (await approvals.isAnswered()) await runner.wake(job).catch(() => undefined);
  return parked;
}
