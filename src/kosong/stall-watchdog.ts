import { APITimeoutError } from './errors.js';

export interface StallOptions {
  /** How long the model may stay silent (no response, or no part) before the call is abandoned. */
  timeoutMs: number;
  /** Told every `progressEveryMs` of silence how long it has lasted, so a person knows why nothing happens. */
  onWaiting?: ((silentMs: number) => void) | undefined;
  /** Default: a quarter of the timeout, at most 15 s. */
  progressEveryMs?: number | undefined;
}

const MAX_PROGRESS_EVERY_MS = 15_000;

/**
 * Watches one model call for silence. `touch` on every part only stamps the time (a stream may send
 * hundreds of thousands of parts); the one timer re-arms itself for whichever comes first, the next
 * progress report or the timeout, from the last stamp. On timeout it aborts `signal`, which the
 * provider's request follows.
 */
export class StallWatchdog {
  private readonly controller = new AbortController();
  private readonly progressEveryMs: number;
  private last = performance.now();
  /** Progress reports given since the last part. */
  private reported = 0;
  private timer: NodeJS.Timeout | undefined;
  private confirming: NodeJS.Immediate | undefined;
  stalled = false;

  constructor(private readonly options: StallOptions) {
    this.progressEveryMs = Math.max(
      1,
      options.progressEveryMs ?? Math.min(MAX_PROGRESS_EVERY_MS, options.timeoutMs / 4),
    );
    this.arm(Math.min(this.progressEveryMs, options.timeoutMs));
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  touch(): void {
    this.last = performance.now();
    this.reported = 0;
  }

  stop(): void {
    clearTimeout(this.timer);
    clearImmediate(this.confirming);
  }

  /** The error a stalled call ends with. */
  error(): APITimeoutError {
    return new APITimeoutError(
      `The model sent nothing for ${formatSeconds(this.options.timeoutMs)}; the request was abandoned.`,
    );
  }

  private arm(ms: number): void {
    this.timer = setTimeout(() => this.check(), Math.max(1, ms));
  }

  private confirmStall(): void {
    if (performance.now() - this.last < this.options.timeoutMs) {
      this.check();
      return;
    }
    this.stalled = true;
    this.controller.abort(this.error());
  }

  private check(): void {
    const silent = performance.now() - this.last;
    const { timeoutMs, onWaiting } = this.options;
    if (silent >= timeoutMs) {
      // Timers run before the poll for I/O: a process the machine starved past the timeout would
      // call a stall although the model's bytes wait in the socket. Read them first, then judge.
      this.confirming = setImmediate(() => this.confirmStall());
      return;
    }
    const due = Math.floor(silent / this.progressEveryMs);
    if (due > this.reported) {
      this.reported = due;
      onWaiting?.(due * this.progressEveryMs);
    }
    const nextProgress = (this.reported + 1) * this.progressEveryMs - silent;
    this.arm(Math.min(nextProgress, timeoutMs - silent));
  }
}

export function formatSeconds(ms: number): string {
  const s = ms / 1000;
  return `${Number.isInteger(s) ? s : s.toFixed(1)} s`;
}
