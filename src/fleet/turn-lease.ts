import type { Redis } from 'ioredis';
import { jobLockKey, sessionHolderKey } from './fleet-keys.js';

/** This worker no longer holds the turn's job: another may have taken it over. */
export class LeaseLost extends Error {
  override name = 'LeaseLost';
}

/**
 * A worker's hold on a session while it runs one of its turns: the session's holder is the turn's
 * job, and the job's BullMQ lock holds the lock token BullMQ gave this worker. Every commit of a step asks `check` first, so a
 * worker that lost the lock (a long pause, a partition: the job stalled and another worker took it)
 * cannot write after the other took over. Once lost, always lost for this attempt.
 */
export class TurnLease {
  private lostReason: string | null = null;

  constructor(
    private readonly redis: Redis,
    private readonly sessionId: string,
    private readonly jobId: string,
    private readonly token: string,
  ) {}

  get lost(): boolean {
    return this.lostReason !== null;
  }

  async check(): Promise<void> {
    if (this.lostReason !== null) throw new LeaseLost(this.lostReason);
    let holder: string | null | undefined;
    let lock: string | null | undefined;
    try {
      [holder, lock] = await this.redis.mget(sessionHolderKey(this.sessionId), jobLockKey(this.jobId));
    } catch {
      // A lease that cannot be confirmed is not held: the step is not committed.
      this.lostReason = 'The lease on the session could not be confirmed: Redis is unreachable.';
      throw new LeaseLost(this.lostReason);
    }
    if (holder !== this.jobId || lock !== this.token) {
      this.lostReason = 'This worker lost its lease on the session: another worker has taken the turn over.';
      throw new LeaseLost(this.lostReason);
    }
  }

  /** Marks the lease lost from outside (the lock could not be renewed, the worker is stopping). */
  lose(reason: string): void {
    this.lostReason ??= reason;
  }
}
