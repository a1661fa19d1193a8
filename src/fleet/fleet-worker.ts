import { hostname } from 'node:os';
import { DelayedError, type Job, UnrecoverableError, WaitingChildrenError, Worker } from 'bullmq';
import type { BackgroundTaskKeeper } from '../app/extensions/background-task-keeper.js';
import { CRON_FIRE_JOB, runCronFireJob } from './cron-fire-job.js';
import { FLEET_PREFIX, TURN_QUEUE } from './fleet-keys.js';
import type { SwarmItemSession } from './job-session.js';
import { ParkedWaits } from './parked-waits.js';
import type { QueueAddress } from './queue-address.js';
import { connectRedis, type RedisUnreachable, redisOptions } from './redis-connection.js';
import { runSwarmItemJob } from './run-swarm-item-job.js';
import { type FleetSession, runTurnJob, type TurnRunner } from './run-turn-job.js';
import type { SessionPartFiles } from './session-mirror.js';
import { SWARM_ITEM_JOB } from './swarm-item-job.js';
import { TurnCancels } from './turn-cancels.js';
import type { TurnJob } from './turn-job.js';
import { LeaseLost } from './turn-lease.js';

export interface FleetWorkerOptions {
  address: QueueAddress;
  concurrency: number;
  label?: string | undefined;
  /** BullMQ's lock duration: how long a silent worker keeps its turns before another takes them. */
  leaseMs: number;
  /** How long Redis may be away before the worker gives up. */
  redisGraceMs: number;
  open: (job: TurnJob) => Promise<FleetSession>;
  /** Where this worker keeps its copy of a job's session (its own home: nothing shared with others). */
  files: (job: TurnJob) => SessionPartFiles;
  /** Hands a turn's work back (a git remote's session branch); see TurnRunner. */
  settle?: TurnRunner['settle'];
  /** Opens a turn's session to run one item of its swarm (a child job) in it. */
  openItem: (job: TurnJob) => Promise<SwarmItemSession>;
  /** A git remote's session: its worktree checked out here before an item runs in it. */
  prepareItem?: (job: TurnJob) => Promise<void>;
  /** A git remote's session: an item's branch pushed back. */
  pushItemBranch?: (job: TurnJob, branch: string) => Promise<void>;
  /** One line of what the worker does (stderr). */
  log: (line: string) => void;
  /** The background tasks of turns parked for a WaitFor (the same keeper `open` gives its sessions). */
  keeper?: BackgroundTaskKeeper | undefined;
}

export interface FleetWorker {
  readonly name: string;
  /** Settles when Redis is gone for good: the worker cannot go on. */
  readonly gone: Promise<RedisUnreachable>;
  /** Takes nothing new, lets the running turns finish, then closes. */
  drain(): Promise<void>;
  /** Stops now: running turns are aborted (their committed steps stay). */
  abort(): void;
}

/**
 * A worker of the fleet: takes turn jobs from the queue (BullMQ) and runs each
 * with `open`'s session. At-least-once: a turn whose worker died is taken by another once its lock
 * expires, and redone from its last committed step.
 */
export async function startFleetWorker(options: FleetWorkerOptions): Promise<FleetWorker> {
  const name = `${options.label ?? 'worker'}@${hostname()}:${process.pid}`;
  let markGone!: (error: RedisUnreachable) => void;
  const gone = new Promise<RedisUnreachable>((resolve) => {
    markGone = resolve;
  });
  const redis = await connectRedis(options.address, {
    graceMs: options.redisGraceMs,
    onGone: (e) => markGone(e),
  });
  const turns = new AbortController();
  const subscriber = await connectRedis(options.address, { graceMs: options.redisGraceMs });
  const cancels = await TurnCancels.listen(subscriber);
  const waits = options.keeper
    ? new ParkedWaits(redis, name, options.keeper, cancels, options.leaseMs, options.log)
    : undefined;
  // Each running turn's own stop: the worker stopping, or its job's lock lost (BullMQ could not renew
  // it: this worker was paused or cut off past its lease, and another may run the turn now).
  const lockLost = new Map<string, AbortController>();
  const runJob = (job: Job, token: string | undefined) => {
    const stop = new AbortController();
    const onStop = () => stop.abort(turns.signal.reason);
    turns.signal.addEventListener('abort', onStop, { once: true });
    if (job.id !== undefined) lockLost.set(job.id, stop);
    return runTurnJob(
      {
        redis,
        open: options.open,
        files: options.files,
        ...(options.settle ? { settle: options.settle } : {}),
        worker: name,
        label: options.label,
        log: options.log,
        signal: stop.signal,
        cancels,
        unrecoverable: (message) => new UnrecoverableError(message),
        park: async (job, token, delayMs) => {
          await job.moveToDelayed(Date.now() + delayMs, token);
          return new DelayedError();
        },
        wake: (job) => job.promote(),
        waitChildren: async (job, token) => {
          if (await job.moveToWaitingChildren(token)) return new WaitingChildrenError();
          // Every child ended before the turn could wait: it is taken again at once.
          await job.moveToDelayed(Date.now(), token);
          return new DelayedError();
        },
        waits,
      },
      job,
      token,
    ).finally(() => {
      turns.signal.removeEventListener('abort', onStop);
      if (job.id !== undefined && lockLost.get(job.id) === stop) lockLost.delete(job.id);
    });
  };
  // One item of a turn's swarm: its own stop, like a turn's (the worker stopping, its lock lost).
  const runItem = (job: Job, token: string | undefined) => {
    const stop = new AbortController();
    const onStop = () => stop.abort(turns.signal.reason);
    turns.signal.addEventListener('abort', onStop, { once: true });
    if (job.id !== undefined) lockLost.set(job.id, stop);
    return runSwarmItemJob(
      {
        redis,
        openItem: options.openItem,
        files: options.files,
        ...(options.prepareItem ? { prepare: options.prepareItem } : {}),
        ...(options.pushItemBranch ? { pushBranch: options.pushItemBranch } : {}),
        label: options.label,
        park: async (job, token, delayMs) => {
          await job.moveToDelayed(Date.now() + delayMs, token);
          return new DelayedError();
        },
        wake: (job) => job.promote(),
        signal: stop.signal,
        cancels,
        log: options.log,
        unrecoverable: (message) => new UnrecoverableError(message),
      },
      job,
      token,
    ).finally(() => {
      turns.signal.removeEventListener('abort', onStop);
      if (job.id !== undefined && lockLost.get(job.id) === stop) lockLost.delete(job.id);
    });
  };
  // A schedule's fire only queues its session's next turn: no session is opened for it.
  const processJob = (job: Job, token: string | undefined) => {
    if (job.name === CRON_FIRE_JOB)
      return runCronFireJob(redis, job, (message) => new UnrecoverableError(message));
    if (job.name === SWARM_ITEM_JOB) return runItem(job, token);
    return runJob(job, token);
  };
  const worker = new Worker(TURN_QUEUE, processJob, {
    connection: { ...redisOptions(options.address), maxRetriesPerRequest: null },
    prefix: FLEET_PREFIX,
    name,
    concurrency: options.concurrency,
    lockDuration: options.leaseMs,
    stalledInterval: Math.max(500, Math.floor(options.leaseMs / 2)),
    // A turn whose worker died is taken over; one that killed two workers is failed.
    maxStalledCount: 2,
    autorun: false,
  });
  // BullMQ reports connection trouble as events; whether Redis is gone is `redis`'s to say.
  worker.on('error', () => {});
  worker.on('active', (job) => options.log(`took ${job.id}`));
  worker.on('lockRenewalFailed', (jobIds) => {
    for (const id of jobIds)
      lockLost.get(id)?.abort(new LeaseLost(`The lock on ${id} could not be renewed.`));
  });
  worker.on('completed', (job, result: { code?: number } | undefined) =>
    options.log(`finished ${job.id} (exit ${result?.code ?? '?'})`),
  );
  worker.on('failed', (job, error) => options.log(`gave up ${job?.id ?? 'a job'}: ${error.message}`));
  await worker.waitUntilReady();
  void worker.run().catch(() => undefined);
  options.log(`worker ${name} is taking turns from ${options.address.display}`);
  return {
    name,
    gone,
    drain: async () => {
      await worker.close();
      // Turns parked for a WaitFor cannot come back: their tasks stop, and they go on elsewhere.
      await waits?.releaseAll();
      subscriber.disconnect();
      await redis.quit().catch(() => redis.disconnect());
    },
    abort: () => {
      turns.abort(new Error('The worker stopped.'));
      void waits?.releaseAll().catch(() => undefined);
      void worker.close(true).catch(() => undefined);
      subscriber.disconnect();
      redis.disconnect();
    },
  };
}
