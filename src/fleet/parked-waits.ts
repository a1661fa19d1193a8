import type { Redis } from 'ioredis';
import type { BackgroundTaskKeeper } from '../app/extensions/background-task-keeper.js';
import type { WaitRequest } from '../tools/background/wait-parking.js';
import { parkedWaitKey } from './fleet-keys.js';
import { openTurnQueue } from './fleet-queue.js';
import type { TurnCancels } from './turn-cancels.js';

/**
 * A worker's turns parked for a WaitFor: their background tasks run on in this process (the
 * keeper), so the turn must come back here. Redis says which worker that is, for as long as it
 * lives (a key it keeps refreshing): another worker that takes the turn parks it again for a
 * moment, and once the key expires (the worker died) any worker runs it, where the task is found
 * lost, as after a restart. A job is woken when a task it waits for ends, or a cancel comes.
 */
export class ParkedWaits {
  private readonly watching = new Map<string, AbortController>();
  /** The parked jobs, by session: what releaseAll wakes. */
  private readonly jobs = new Map<string, string>();

  constructor(
    private readonly redis: Redis,
    private readonly worker: string,
    readonly keeper: BackgroundTaskKeeper,
    private readonly cancels: TurnCancels,
    /** How long the worker's claim on a parked turn outlives the worker's last word. */
    private readonly claimMs: number,
    private readonly log: (line: string) => void,
  ) {}

  /**
   * While the session's turn runs here: a WaitFor that would block calls `stop` (the turn is stopped
   * before the step commits, to be parked); `parked` is that wait.
   */
  watchTurn(sessionId: string, stop: () => void): { readonly parked: WaitRequest | null; done: () => void } {
    let parked: WaitRequest | null = null;
    const done = this.keeper.watchTurn(sessionId, (wait) => {
      parked = wait;
      stop();
    });
    return {
      get parked() {
        return parked;
      },
      done,
    };
  }

  /** Whether the session's parked tasks live in another worker, which the turn must go back to. */
  async heldElsewhere(sessionId: string): Promise<boolean> {
    if (this.keeper.holds(sessionId)) return false;
    const key = parkedWaitKey(sessionId);
    const [holder, ttl] = await Promise.all([this.redis.get(key), this.redis.pttl(key)]);
    // A claim is a live worker's word, kept fresh: one without an expiry (planted) holds nothing.
    return holder !== null && holder !== this.worker && ttl > 0;
  }

  /**
   * The turn of `jobId` parked here for a wait (its session closed, its tasks kept): claims it in
   * Redis until it runs again, and wakes it when its wait is due, or at a cancel of the session.
   */
  async hold(sessionId: string, jobId: string, wake: () => Promise<void>): Promise<void> {
    const key = parkedWaitKey(sessionId);
    await this.redis.set(key, this.worker, 'PX', this.claimMs);
    const stop = new AbortController();
    this.watching.get(sessionId)?.abort();
    this.watching.set(sessionId, stop);
    this.jobs.set(sessionId, jobId);
    const refresh = setInterval(
      () => void this.redis.set(key, this.worker, 'PX', this.claimMs).catch(() => undefined),
      Math.max(100, Math.floor(this.claimMs / 3)),
    );
    const cancel = this.cancels.watch(sessionId, stop.signal);
    void this.keeper
      .due(sessionId, cancel.signal)
      .then(
        (why) => `${why === 'task' ? 'a task it waits for ended' : 'its wait is over'}`,
        () => (stop.signal.aborted ? null : 'cancelled'),
      )
      .then(async (why) => {
        cancel.done();
        clearInterval(refresh);
        if (why === null) return;
        this.log(`waking ${jobId}: ${why}`);
        await wake().catch(() => undefined);
      });
    stop.signal.addEventListener('abort', () => clearInterval(refresh), { once: true });
  }

  /** The parked turn runs again here: no more watching (the session's open takes the tasks back). */
  async resumed(sessionId: string): Promise<void> {
    this.stopWatching(sessionId);
    await this.redis.del(parkedWaitKey(sessionId));
  }

  /**
   * The worker stops (a drain, or Redis gone): the kept tasks are stopped, as a session's end stops
   * them, and their turns woken to go on elsewhere, where WaitFor finds the task stopped (or lost).
   */
  async releaseAll(): Promise<void> {
    const sessions = this.keeper.sessions();
    if (sessions.length === 0) return;
    // The worker's own BullMQ connections may be closed by now: the jobs are woken through this one.
    const queue = await openTurnQueue(this.redis);
    const wake = async (jobId: string | undefined) => {
      const job = jobId === undefined ? undefined : await queue.getJob(jobId);
      if (job && (await job.isDelayed())) await job.promote();
    };
    await Promise.all(
      sessions.map(async (sessionId) => {
        const jobId = this.jobs.get(sessionId);
        this.stopWatching(sessionId);
        await this.keeper.release(sessionId, 'Stopped because its worker stopped.');
        await this.redis.del(parkedWaitKey(sessionId)).catch(() => undefined);
        this.log(`stopped the tasks of ${sessionId}'s parked turn; it goes on on another worker`);
        await wake(jobId).catch(() => undefined);
      }),
    );
    await queue.close().catch(() => undefined);
  }

  private stopWatching(sessionId: string): void {
    this.watching.get(sessionId)?.abort();
    this.watching.delete(sessionId);
    this.jobs.delete(sessionId);
  }
}
