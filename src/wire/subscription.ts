import type { WireMessage } from './message.js';

/** Compact the queue once this many read slots sit at its front (and they are most of it). */
const COMPACT_AFTER = 1024;

/**
 * One subscriber's queue. The producer only appends and, if the reader is parked, wakes it once; a
 * reader that wakes up takes everything queued in one go, so wake-ups are batched however fast the
 * producer is. The queue holds only what this subscriber has not read yet, and a slow reader delays
 * nobody else. Messages are shared with other subscribers: treat them as read-only.
 *
 * Read it message by message (`for await (const message of subscription)`) or in batches
 * (`for await (const batch of subscription.batches())`). Both end after the Wire shuts down and
 * everything sent before has been read; `close()` (or leaving a `for await` early) unsubscribes.
 */
export class WireSubscription implements AsyncIterable<WireMessage> {
  private queue: (WireMessage | undefined)[] = [];
  private head = 0;
  private ended = false;
  private wake: (() => void) | null = null;

  constructor(
    /** Whether this subscriber gets merged messages (true) or every raw fragment (false). */
    readonly merged: boolean,
    private readonly detach: (subscription: WireSubscription) => void,
  ) {}

  /** How many messages wait to be read. */
  get size(): number {
    return this.queue.length - this.head;
  }

  /** True once the Wire has shut down (or the subscription was closed) and nothing is left to read. */
  get isDone(): boolean {
    return this.ended && this.size === 0;
  }

  /** @internal Called by the Wire for every message. */
  push(message: WireMessage): void {
    if (this.ended) return;
    this.queue.push(message);
    if (this.wake !== null) this.wakeReader();
  }

  /** @internal Called by the Wire on shutdown: the reader sees what is queued, then the end. */
  end(): void {
    this.ended = true;
    if (this.wake !== null) this.wakeReader();
  }

  /** Stops delivery at once and drops what is queued. */
  close(): void {
    if (!this.ended) this.detach(this);
    this.ended = true;
    this.queue = [];
    this.head = 0;
    if (this.wake !== null) this.wakeReader();
  }

  /** Removes and returns everything queued now (possibly nothing). */
  takeAll(): WireMessage[] {
    let batch: (WireMessage | undefined)[];
    if (this.head === 0) {
      batch = this.queue;
      this.queue = [];
    } else {
      batch = this.queue.slice(this.head);
      this.queue.length = 0;
      this.head = 0;
    }
    return batch as WireMessage[];
  }

  /**
   * Resolves true when at least one message is queued, false when the subscription is done. Rejects
   * with the signal's reason if `signal` aborts first.
   */
  waitForMessages(signal?: AbortSignal): Promise<boolean> {
    if (this.size > 0) return Promise.resolve(true);
    if (this.ended) return Promise.resolve(false);
    if (signal?.aborted) return Promise.reject(signal.reason);
    return new Promise<boolean>((resolve, reject) => {
      const onAbort = (): void => {
        this.wake = null;
        reject(signal?.reason);
      };
      this.wake = () => {
        signal?.removeEventListener('abort', onAbort);
        resolve(this.size > 0);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  /** The next message, or null once the subscription is done. */
  async receive(signal?: AbortSignal): Promise<WireMessage | null> {
    if (this.size === 0 && !(await this.waitForMessages(signal))) return null;
    return this.shift();
  }

  /** Batches of messages as they arrive, each everything that was queued at that moment. */
  async *batches(signal?: AbortSignal): AsyncGenerator<WireMessage[], void, undefined> {
    try {
      while (await this.waitForMessages(signal)) yield this.takeAll();
    } finally {
      if (!this.ended) this.close();
    }
  }

  [Symbol.asyncIterator](): AsyncIterator<WireMessage> {
    return {
      next: (): Promise<IteratorResult<WireMessage, undefined>> => {
        if (this.size > 0) return Promise.resolve({ value: this.shift(), done: false });
        return this.waitForMessages().then((hasMessages) =>
          hasMessages ? { value: this.shift(), done: false } : { value: undefined, done: true },
        );
      },
      return: (): Promise<IteratorResult<WireMessage, undefined>> => {
        if (!this.ended) this.close();
        return Promise.resolve({ value: undefined, done: true });
      },
    };
  }

  private shift(): WireMessage {
    const message = this.queue[this.head] as WireMessage;
    this.queue[this.head] = undefined;
    this.head++;
    if (this.head === this.queue.length) {
      this.queue.length = 0;
      this.head = 0;
    } else if (this.head >= COMPACT_AFTER && this.head * 2 >= this.queue.length) {
      this.queue = this.queue.slice(this.head);
      this.head = 0;
    }
    return message;
  }

  private wakeReader(): void {
    const wake = this.wake;
    this.wake = null;
    wake?.();
  }
}
