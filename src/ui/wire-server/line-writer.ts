import type { Writable } from 'node:stream';

/**
 * Writes whole lines to the output in order, one write at a time, so two messages never interleave.
 * Lines queued while a write is in flight (or before the next microtask) go out together as one
 * write: a model streaming tokens costs few system calls. When the output asks us to wait
 * (backpressure), lines wait in memory; the agent is never blocked by a slow reader.
 */
export class LineWriter {
  private queue: string[] = [];
  private pumping: Promise<void> | null = null;
  private failure: Error | null = null;
  private readonly onOutputError = (error: Error): void => this.fail(error);

  constructor(
    private readonly output: Writable,
    /** Called once when the output fails (e.g. the client closed its end). */
    private readonly onFailure: (error: Error) => void = () => {},
  ) {
    output.on('error', this.onOutputError);
  }

  get failed(): boolean {
    return this.failure !== null;
  }

  /** Queues text made of complete lines (each ending in `\n`). Dropped once the output failed. */
  write(text: string): void {
    if (this.failure !== null || text === '') return;
    this.queue.push(text);
    this.pumping ??= this.pump();
  }

  /** Resolves when everything queued so far has been handed to the output (or the output failed). */
  async flush(): Promise<void> {
    while (this.pumping !== null) await this.pumping;
  }

  /** Stops listening to the output; call after the last flush. */
  detach(): void {
    this.output.off('error', this.onOutputError);
  }

  private async pump(): Promise<void> {
    try {
      // Let everything queued in this tick join the first write.
      await Promise.resolve();
      while (this.queue.length > 0 && this.failure === null) {
        const text = this.queue.length === 1 ? this.queue[0]! : this.queue.join('');
        this.queue = [];
        await this.writeOnce(text);
      }
    } finally {
      this.pumping = null;
    }
  }

  private writeOnce(text: string): Promise<void> {
    return new Promise<void>((resolve) => {
      const output = this.output;
      if (output.destroyed || output.writableEnded) {
        this.fail(new Error('The output stream is closed.'));
        resolve();
        return;
      }
      let settled = false;
      const done = (): void => {
        if (settled) return;
        settled = true;
        output.off('drain', done);
        output.off('close', onClose);
        resolve();
      };
      const onClose = (): void => {
        this.fail(new Error('The output stream closed.'));
        done();
      };
      output.once('close', onClose);
      // The callback reports failures too; 'error' already routes them to fail().
      const ready = output.write(text, (error) => {
        if (error) this.fail(error);
        if (ready) done();
      });
      if (!ready) output.once('drain', done);
    });
  }

  private fail(error: Error): void {
    if (this.failure !== null) return;
    this.failure = error;
    this.queue = [];
    this.onFailure(error);
  }
}
