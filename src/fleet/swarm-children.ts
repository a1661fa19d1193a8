import type { Redis } from 'ioredis';
import {
  type DispatchedItem,
  failedItemEnd,
  outcomeOfItemEnd,
  type SwarmDispatch,
} from '../app/subagents/swarm-dispatch.js';
import { sanitizeForTerminal } from '../util/sanitize-terminal.js';
import { openTurnQueue } from './fleet-queue.js';
import { swarmItemJobId, swarmItemResultSchema } from './swarm-item-job.js';
import { queueSwarmWindow } from './swarm-item-queue.js';
import { readSwarmRecord, recordSwarm, swarmKeyOf } from './swarm-record.js';
import type { TurnJob } from './turn-job.js';

/** A swarm the turn waits for: its record's key and how many items it handed out. */
export interface ChildrenWait {
  swarmKey: string;
  swarmId: string;
  items: number;
  /** How many of its items run at once. */
  concurrency: number;
}

/**
 * A fleet turn's swarms as child jobs. The model's AgentSwarm call is answered from its children's
 * ends when they have all ended; until then the call records the swarm and stops the step (`park`:
 * nothing of it is committed), the turn's job queues one child job per item and waits for them in
 * BullMQ's `waiting-children` (holding no worker), and when the last child ends the turn's job is
 * taken again: its redone step makes the same call (same place in the history, same ask), which
 * finds the ends. A different call is another swarm (see swarmKeyOf).
 */
export class SwarmChildren {
  waiting: ChildrenWait | null = null;

  constructor(
    private readonly redis: Redis,
    private readonly data: TurnJob,
    private readonly jobId: string,
    /** The committed history's length now: where the step that calls starts. */
    private readonly historyAt: () => number,
    private readonly park: () => void,
  ) {}

  readonly dispatch: SwarmDispatch = async (swarm) => {
    const swarmKey = swarmKeyOf(this.jobId, this.historyAt(), swarm);
    const { sessionId } = this.data;
    const swarmId = `s${swarmKey.slice(0, 8)}`;
    // Every child has ended (whatever became of the record since): the call gets their ends.
    const ends = await this.childEnds(swarmKey, swarm.items.length);
    if (ends !== null) return { swarmId, items: ends };
    const recorded = await readSwarmRecord(this.redis, sessionId, swarmKey);
    if (recorded !== null && recorded.jobId === this.jobId)
      return this.waitFor({
        swarmKey,
        swarmId,
        items: recorded.items.length,
        concurrency: recorded.concurrency,
      });
    await recordSwarm(this.redis, sessionId, swarmKey, {
      jobId: this.jobId,
      swarmId,
      description: swarm.description,
      subagentType: swarm.subagentType,
      model: swarm.model,
      isolation: swarm.isolation,
      items: swarm.items.map(({ item, prompt }) => ({ item, prompt })),
      concurrency: swarm.concurrency,
      toolCallId: swarm.parentToolCallId,
    });
    return this.waitFor({ swarmKey, swarmId, items: swarm.items.length, concurrency: swarm.concurrency });
  };

  /**
   * Queues the children of the swarm the turn waits for: the first ones of its window (see
   * swarm-item-queue.ts). Called once the turn has stopped and handed back its work: a child
   * starts from it.
   */
  async queueChildren(): Promise<void> {
    const wait = this.waiting;
    if (wait === null) return;
    await queueSwarmWindow(this.redis, {
      sessionId: this.data.sessionId,
      turn: this.data.turn,
      swarmKey: wait.swarmKey,
      items: wait.items,
      concurrency: wait.concurrency,
    });
  }

  private waitFor(wait: ChildrenWait): never {
    this.waiting ??= wait;
    this.park();
    throw new Error(`The turn waits for its swarm's ${wait.items} items, each a job any worker may take.`);
  }

  /** Every child's end, in item order; null while one has not ended (or was never queued). */
  private async childEnds(swarmKey: string, count: number): Promise<DispatchedItem[] | null> {
    const queue = await openTurnQueue(this.redis);
    try {
      const ends: DispatchedItem[] = [];
      for (let index = 1; index <= count; index++) {
        const job = await queue.getJob(swarmItemJobId(this.data.sessionId, swarmKey, index));
        // Not queued yet (the worker that recorded the swarm died first): queued when the turn waits.
        if (job === undefined) return null;
        const state = await job.getState();
        if (state === 'failed') {
          const why = sanitizeForTerminal(job.failedReason || 'its job failed');
          ends.push({ outcome: outcomeOfItemEnd(failedItemEnd(`Its job failed: ${why}`)), notStarted: null });
          continue;
        }
        if (state !== 'completed') return null;
        const result = swarmItemResultSchema.safeParse(job.returnvalue);
        if (!result.success)
          ends.push({
            outcome: outcomeOfItemEnd(failedItemEnd('Its job ended with nothing kimi-ts can read.')),
            notStarted: null,
          });
        else if ('end' in result.data)
          ends.push({ outcome: outcomeOfItemEnd(result.data.end), notStarted: null });
        else ends.push({ outcome: null, notStarted: result.data.notStarted });
      }
      return ends;
    } finally {
      await queue.close();
    }
  }
}
