import type { CronBook } from '../tools/cron/cron-book.js';
import { cronFireEnvelope } from '../tools/cron/cron-format.js';
import { type CronClock, CronScheduler } from '../tools/cron/cron-scheduler.js';
import type { EventPayloads } from '../wire/events.js';

/** A scheduled prompt that is due, as a front end is told of it; it runs it with `runScheduledTurn`. */
export interface ScheduledPrompt {
  readonly jobId: string;
  readonly prompt: string;
}

/** A due fire taken for the turn about to start: what the soul sends and the model reads. */
export interface ClaimedFire {
  readonly prompt: string;
  readonly modelInput: string;
  readonly event: EventPayloads['ScheduleFired'];
}

export type ScheduledPromptListener = (prompt: ScheduledPrompt) => void;

/**
 * Hands due scheduled prompts to the front ends that run turns, only while the session is idle: a
 * fire that comes due during a turn waits for it to end (and fires missed meanwhile coalesce into
 * it). The scheduler runs only while a front end listens, so print mode, which ends with its prompt,
 * never fires one.
 */
export class ScheduledTurns {
  private readonly listeners = new Set<ScheduledPromptListener>();
  private scheduler: CronScheduler | null = null;
  private closed = false;

  constructor(
    readonly book: CronBook,
    private readonly clock: CronClock,
    private readonly isBusy: () => boolean,
  ) {}

  listen(listener: ScheduledPromptListener): () => void {
    if (this.closed) return () => {};
    this.listeners.add(listener);
    if (!this.scheduler) {
      this.scheduler = new CronScheduler(this.book, this.clock, () => this.offer());
      this.scheduler.start();
    } else this.offer();
    return () => {
      this.listeners.delete(listener);
      if (this.listeners.size === 0) this.stopScheduler();
    };
  }

  /** A turn ended: a fire held meanwhile goes out once the front end has seen the turn's end. */
  turnEnded(): void {
    if (this.listeners.size === 0) return;
    setImmediate(() => this.scheduler?.poke());
  }

  /** Takes the job's fire if it is still due (a front end told twice runs it once); else null. */
  claim(jobId: string): ClaimedFire | null {
    const fire = this.book.due(this.clock.now()).find((due) => due.job.id === jobId);
    if (!fire) return null;
    this.book.delivered(fire);
    const { job } = fire;
    return {
      prompt: job.prompt,
      modelInput: cronFireEnvelope(job, fire),
      event: {
        job_id: job.id,
        cron: job.cron,
        recurring: job.recurring,
        coalesced_count: fire.coalescedCount,
        stale: fire.stale,
        created_by: job.created_by,
      },
    };
  }

  close(): void {
    this.closed = true;
    this.listeners.clear();
    this.stopScheduler();
  }

  private offer(): void {
    if (this.isBusy() || this.listeners.size === 0) return;
    const [fire] = this.book.due(this.clock.now());
    if (!fire) return;
    const prompt: ScheduledPrompt = { jobId: fire.job.id, prompt: fire.job.prompt };
    for (const listener of [...this.listeners]) listener(prompt);
  }

  private stopScheduler(): void {
    this.scheduler?.stop();
    this.scheduler = null;
  }
}
