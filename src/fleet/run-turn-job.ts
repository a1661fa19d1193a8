import type { Job } from 'bullmq';
import type { Redis } from 'ioredis';
import type { UILoop } from '../soul/run-soul.js';
import { appendFencedSessionEvent, type StreamEntry, wireEntry } from './event-stream.js';
import { queueGoalStep } from './goal-continuation.js';
import type { FleetSession } from './job-session.js';
import { type JobTurn, runJobTurn } from './job-turn.js';
import type { ParkedWaits } from './parked-waits.js';
import { armSchedulesAfterTurn } from './schedule-sync.js';
import { claimSession, countTurnRun, previousTurnDone } from './session-claim.js';
import { priceOfSession, SessionCostMeter } from './session-cost.js';
import {
  commitLocalChanges,
  loadSessionFromStore,
  type SessionPartFiles,
  storeFence,
} from './session-mirror.js';
import { SwarmChildren } from './swarm-children.js';
import { parkForChildren } from './swarm-parking.js';
import { type TurnCancels, takeCancelFlag } from './turn-cancels.js';
import { turnEndOf } from './turn-end.js';
import { type TurnJob, turnJobId, turnJobSchema, turnProgressSchema } from './turn-job.js';
import { LeaseLost, TurnLease } from './turn-lease.js';
import { type ParkedWait, TurnParking } from './turn-parking.js';

export type { FleetSession };

export interface TurnRunner {
  /** The worker's connection for leases and events (not BullMQ's own). */
  redis: Redis;
  /** Opens the job's session with the worker's own config: the job carries no key. */
  open: (job: TurnJob) => Promise<FleetSession>;
  /** Where this worker keeps its copy of the job's session (loaded from the session store). */
  files: (job: TurnJob) => SessionPartFiles;
  /**
   * After a turn that was neither parked nor lost: hands its work back (a git remote's session
   * branch), calling `check` (the lease) last before it writes anything outside the worker.
   */
  settle?: (job: TurnJob, check: () => Promise<void>) => Promise<void>;
  worker: string;
  /** The worker's `--label`: a turn pinned to another label is not run here. */
  label?: string | undefined;
  /** Aborts running turns (the worker lost Redis). */
  signal: AbortSignal;
  /** Cancels broadcast for sessions whose turns run here. */
  cancels: TurnCancels;
  log: (line: string) => void;
  /** Throws BullMQ's UnrecoverableError: a job no worker could ever run fails without retries. */
  unrecoverable: (message: string) => Error;
  /** Parks the job (BullMQ's moveToDelayed + DelayedError): it holds no worker until it is due. */
  park: (job: Job, token: string, delayMs: number) => Promise<Error>;
  /** Wakes a parked job now (BullMQ's promote). */
  wake: (job: Job) => Promise<void>;
  /** Parks the job until its children have ended (BullMQ's waiting-children; now again if they have). */
  waitChildren: (job: Job, token: string) => Promise<Error>;
  /** Turns parked for a WaitFor, whose tasks run on in this worker. */
  waits?: ParkedWaits | undefined;
}

/** How long a turn waits, parked, before it looks again at a session another turn holds. */
const BUSY_SESSION_RETRY_MS = 500;
/** How long a turn pinned to another label waits, parked, before a worker looks at it again. */
const PINNED_RETRY_MS = 250;
/** How long a turn parked for an approval or a question stays parked unless answered (which wakes it). */
const APPROVAL_PARK_MS = 7 * 24 * 3600 * 1000;
/** A turn parked for a WaitFor is due by itself this long after its wait's time (its worker wakes it sooner). */
const WAIT_PARK_GRACE_MS = 1000;

/**
 * Runs one turn job: opens the session, fences its context by the job's lock token, runs the turn
 * (or, when an earlier attempt died after committing the prompt, goes on from its last committed
 * step), streams every wire event to the session's Redis Stream, and ends it there with print mode's
 * exit code. Returns that code (the job's result).
 */
export async function runTurnJob(
  runner: TurnRunner,
  job: Job,
  token: string | undefined,
): Promise<{ code: number }> {
  const parsed = turnJobSchema.safeParse(job.data);
  // A job's id names the session and turn it may touch: one that says otherwise is not ours.
  if (!parsed.success || token === undefined || job.id !== turnJobId(parsed.data.sessionId, parsed.data.turn))
    throw runner.unrecoverable('Not a turn job of kimi-ts.');
  const data = parsed.data;
  const jobId = job.id;
  // Pinned to other workers: parked for a moment, to be taken by one of them (or again by this one).
  if (data.label !== undefined && data.label !== runner.label)
    throw await runner.park(job, token, PINNED_RETRY_MS);
  // Parked for a WaitFor by a worker that keeps its tasks running: it goes back there.
  if (await runner.waits?.heldElsewhere(data.sessionId)) throw await runner.park(job, token, PINNED_RETRY_MS);
  // One turn of a session at a time, in order: a turn whose session is busy waits parked.
  const ready =
    (await previousTurnDone(runner.redis, data.sessionId, data.turn)) &&
    (await claimSession(runner.redis, data.sessionId, job.id)) === null;
  if (!ready) throw await runner.park(job, token, BUSY_SESSION_RETRY_MS);
  const lease = new TurnLease(runner.redis, data.sessionId, job.id, token);
  const attempt = await countTurnRun(runner.redis, data.sessionId, data.turn);
  // Events go out in order, one after the other; the end waits for all of them.
  let events: Promise<unknown> = Promise.resolve();
  const emit = (entry: StreamEntry) => {
    events = events
      .then(() => appendFencedSessionEvent(runner.redis, data.sessionId, { jobId, token }, entry))
      .catch(() => undefined);
  };
  emit({ kind: 'attempt', turn: data.turn, attempt, worker: runner.worker });
  let session: FleetSession;
  const files = runner.files(data);
  try {
    // The store's commits are the truth: a copy missing or behind (the last turn ran elsewhere) is loaded.
    await loadSessionFromStore(runner.redis, data.sessionId, files);
    if (runner.waits?.keeper.holds(data.sessionId)) await runner.waits.resumed(data.sessionId);
    session = await runner.open(data);
  } catch (error) {
    const end = turnEndOf(error);
    emit({ kind: 'end', turn: data.turn, code: 1, error: end.error });
    await events;
    throw runner.unrecoverable(end.error);
  }
  const { context } = session;
  const cancel = runner.cancels.watch(data.sessionId, runner.signal);
  // A WaitFor that would block parks the turn, as an approval does; its tasks run on here.
  const waitPark = runner.waits?.watchTurn(data.sessionId, () => {
    lease.lose('The turn was parked for a wait.');
    cancel.abort();
  });
  let parkedForWait = false;
  try {
    // A cancel asked before this worker listened for it (queued, or handed over) is a flag.
    if (await takeCancelFlag(runner.redis, data.sessionId)) cancel.abort();
    await lease.check();
    const progress = turnProgressSchema.safeParse(job.progress);
    // The prompt is committed when the history grew past where this turn started: go on from there.
    const resume = progress.success && context.history.length > progress.data.historyAtStart;
    if (!progress.success) await job.updateProgress({ historyAtStart: context.history.length });
    const fence = storeFence(runner.redis, data.sessionId, { jobId, token }, lease);
    session.setWriteFence(fence);
    await commitLocalChanges(runner.redis, data.sessionId, files, fence);
    const parking = new TurnParking(runner.redis, data.sessionId, jobId, data.ask === true, () => {
      // Nothing of the step that asked may be committed: it is redone when the answer comes.
      lease.lose('The turn was parked for an answer.');
      cancel.abort();
    });
    // A swarm's items become child jobs; the step that called it is stopped and redone after them.
    const children = new SwarmChildren(
      runner.redis,
      data,
      jobId,
      () => context.history.length,
      () => {
        lease.lose("The turn waits for its swarm's items.");
        cancel.abort();
      },
    );
    session.setSwarmDispatch(children.dispatch);
    const cost = new SessionCostMeter(runner.redis, data.sessionId, priceOfSession(session));
    const ui: UILoop = async (wire) => {
      for await (const batch of wire.subscribe({ merge: true }).batches())
        for (const message of batch) {
          emit(wireEntry(data.turn, message));
          cost.offer(message);
          parking.offer(message, () => cancel.abort());
        }
    };
    let end: { code: number; error?: string };
    let ran: JobTurn = { kind: 'ran' };
    try {
      ran = await runJobTurn(session, data, resume, ui, cancel.signal);
      end = { code: 0 };
    } catch (error) {
      end = turnEndOf(error);
    }
    // The worker could not renew the job's lock and stopped the turn: another may hold it now.
    if (runner.signal.reason instanceof LeaseLost) lease.lose(runner.signal.reason.message);
    // A cron fire that came before the session's own time for it (its jitter) waits, parked.
    if (ran.kind === 'not-due' && !lease.lost)
      throw await runner.park(job, token, Math.max(0, ran.at - Date.now()));
    if (children.waiting !== null && !(runner.signal.reason instanceof LeaseLost))
      throw await parkForChildren(runner, job, token, data, children, emit, () => events);
    const waited = waitPark?.parked ?? null;
    const request: ParkedWait | null =
      parking.parked ??
      (waited && {
        waits: 'task',
        action: 'WaitFor',
        description: `background ${waited.taskIds.length === 1 ? 'task' : 'tasks'} ${waited.taskIds.join(', ')}`,
      });
    if (request !== null) {
      emit({ kind: 'parked', turn: data.turn, ...request });
      await events;
      runner.log(
        request.waits === 'task'
          ? `parked ${job.id} while it waits for ${request.description}`
          : `parked ${job.id} for an answer (${request.waits}): ${request.action}`,
      );
      // The committed steps' work goes back too, while the job still holds the session (checked in
      // Redis: the parked step made this attempt's lease count as lost): whoever takes it next starts there.
      const stillHeld = new TurnLease(runner.redis, data.sessionId, jobId, token);
      await runner
        .settle?.(data, () => stillHeld.check())
        .catch((error: unknown) => {
          runner.log(`the work of ${job.id} before it parked was not handed back: ${turnEndOf(error).error}`);
        });
      if (waited !== null && request.waits === 'task') {
        // Woken by this worker when a task ends; due by itself (the worker died) when the wait's time is up.
        const parkedError = await runner.park(job, token, waited.timeoutMs + WAIT_PARK_GRACE_MS);
        parkedForWait = true;
        throw parkedError;
      }
      const parkedError = await runner.park(job, token, APPROVAL_PARK_MS);
      // `fleet approve` answers, then wakes a parked job: an answer that came before the job was
      // parked found nothing to wake, so it is woken here.
      if (await parking.isAnswered()) await runner.wake(job).catch(() => undefined);
      throw parkedError;
    }
    // A worker that lost the lease says nothing more: the one that took over ends the turn.
    if (lease.lost) {
      runner.log(`lost the lease on ${job.id}: nothing more of it is committed by this worker`);
      throw new LeaseLost('The lease on the session was lost during the turn.');
    }
    if (runner.settle) {
      try {
        await runner.settle(data, () => lease.check());
      } catch (error) {
        if (lease.lost) throw new LeaseLost('The lease on the session was lost before its work was pushed.');
        if (end.code === 0) end = turnEndOf(error);
      }
    }
    // The turn's cost is counted before its end is told: whoever reads the end finds it.
    await cost.settled();
    // The broadcast cancel that stopped this turn left its flag too: it is spent.
    if (cancel.signal.aborted) await takeCancelFlag(runner.redis, data.sessionId);
    // The session's schedules, as this turn left them, become the fleet's schedulers.
    await armSchedulesAfterTurn(runner.redis, data, session.cronBook, runner.log);
    if (ran.kind === 'nothing-to-fire') runner.log(`${job.id}: ${ran.why}; nothing fired`);
    // An active goal goes on as the next job, not in a loop here; a cancelled turn paused it.
    if (end.code === 0 && session.hasActiveGoal && !cancel.signal.aborted) {
      const continues = await queueGoalStep(runner.redis, data);
      emit({ kind: 'end', turn: data.turn, ...end, continues });
      await events;
      return { code: end.code };
    }
    const goalEnd = session.goalRunEnd();
    emit({ kind: 'end', turn: data.turn, ...end, ...(goalEnd ? { goalEnd } : {}) });
    await events;
    return { code: end.code };
  } finally {
    cancel.done();
    waitPark?.done();
    session.setWriteFence(null);
    session.setSwarmDispatch(null);
    await session.close().catch(() => undefined);
    // The session closed with its tasks kept: the job is woken when the wait is due.
    if (runner.waits && waitPark?.parked)
      if (parkedForWait)
        await runner.waits
          .hold(data.sessionId, jobId, () => runner.wake(job))
          .catch((error: unknown) => {
            runner.log(`${jobId} is parked but not watched: ${turnEndOf(error).error}`);
          });
      else await runner.waits.keeper.release(data.sessionId, 'Stopped because the turn could not be parked.');
  }
}
