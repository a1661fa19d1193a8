import type { CronBook } from './cron-book.js';

/** The scheduler's time: the wall clock and a one-shot timer; tests pass a fake one. */
export interface CronClock {
  now(): number;
  /** Calls `callback` after `ms`; returns the function that cancels it. */
  setTimer(callback: () => void, ms: number): () => void;
}

export const SYSTEM_CRON_CLOCK: CronClock = {
  now: () => Date.now(),
  setTimer(callback, ms) {
    const timer = setTimeout(callback, ms);
    // A pending schedule never keeps the process alive on its own.
    timer.unref();
    return () => clearTimeout(timer);
  },
};

/**
 * Longest single sleep: the wall clock can jump (a laptop sleeps, the clock is set), so the scheduler
 * looks again at least this often instead of trusting one long timer.
 */
const MAX_SLEEP_MS = 60_000;
/**
 * While a fire is due but not taken (a turn runs, the front end is busy with something of its own),
 * it is offered again this often; a turn's end offers it at once.
 */
const RETRY_DUE_MS = 1_000;

/**
 * Wakes when the book's next fire comes due and calls `onDue`. A fire due but not taken is offered
 * again each second (and at once on `poke`, when a turn ended), never in a tight loop. `stop` cancels
 * the one timer it holds.
 */
export class CronScheduler {
  private cancelTimer: (() => void) | null = null;
  private stopped = true;

  constructor(
    private readonly book: CronBook,
    private readonly clock: CronClock,
    private readonly onDue: () => void,
  ) {
    book.onChange(() => {
      if (!this.stopped) this.arm();
    });
  }

  start(): void {
    this.stopped = false;
    this.poke();
  }

  stop(): void {
    this.stopped = true;
    this.cancelTimer?.();
    this.cancelTimer = null;
  }

  /** Looks now: tells `onDue` when something is due, and sleeps until the next fire after now. */
  poke(): void {
    if (this.stopped) return;
    if (this.book.due(this.clock.now()).length > 0) this.onDue();
    this.arm();
  }

  private arm(): void {
    this.cancelTimer?.();
    this.cancelTimer = null;
    const now = this.clock.now();
    let next: number | null = null;
    for (const job of this.book.list()) {
      let at = this.book.nextFireAt(job);
      if (at !== null && at <= now) at = now + RETRY_DUE_MS;
      if (at !== null && (next === null || at < next)) next = at;
    }
    if (next === null) return;
    this.cancelTimer = this.clock.setTimer(
      () => {
        this.cancelTimer = null;
        this.poke();
      },
      Math.min(next - now, MAX_SLEEP_MS),
    );
  }
}
