import type { Job } from 'bullmq';
import type { Redis } from 'ioredis';
import type { StreamEntry } from './event-stream.js';
import type { SwarmChildren } from './swarm-children.js';
import { turnEndOf } from './turn-end.js';
import type { TurnJob } from './turn-job.js';
import { TurnLease } from './turn-lease.js';

/** What parking a turn for its swarm needs of the worker (see TurnRunner). */
export interface SwarmParkingRunner {
  redis: Redis;
  settle?: ((job: TurnJob, check: () => Promise<void>) => Promise<void>) | undefined;
  log: (line: string) => void;
  waitChildren: (job: Job, token: string) => Promise<Error>;
}

/**
 * The turn stopped for its swarm: says so in the stream, hands back the committed steps' work (a
 * `--repo` session: the children start from it), queues the children and parks the job in
 * BullMQ's waiting-children, where it holds no worker until the last child ends.
 */
export async function parkForChildren(
  runner: SwarmParkingRunner,
  job: Job,
  token: string,
  data: TurnJob,
  children: SwarmChildren,
  emit: (entry: StreamEntry) => void,
  events: () => Promise<unknown>,
): Promise<Error> {
  const wait = children.waiting as NonNullable<SwarmChildren['waiting']>;
  const description = `${wait.items} items of swarm ${wait.swarmId}, each a job any worker may take`;
  emit({ kind: 'parked', turn: data.turn, waits: 'children', action: 'AgentSwarm', description });
  await events();
  const stillHeld = new TurnLease(runner.redis, data.sessionId, job.id as string, token);
  await runner
    .settle?.(data, () => stillHeld.check())
    .catch((error: unknown) => {
      runner.log(`the work of ${job.id} before its swarm was not handed back: ${turnEndOf(error).error}`);
    });
  await children.queueChildren();
  runner.log(`parked ${job.id} until its swarm's ${wait.items} items have ended`);
  return runner.waitChildren(job, token);
}
