/**
 * A signal that aborts when either of two does, with the reason of the first, as
 * `AbortSignal.any([a, b])` does; `release()` unhooks it from both once it is no longer needed.
 *
 * For a model call that follows the turn's signal and its own stall watchdog. `AbortSignal.any` links
 * through weak references that stay on the turn's signal until a GC, one more each step, and cost
 * some 20 µs a call on Node 20 against a few for two listeners taken off again.
 */
export class EitherSignal {
  private readonly controller = new AbortController();
  private readonly onAbort = (event: Event): void => {
    this.release();
    this.controller.abort((event.target as AbortSignal).reason);
  };

  constructor(
    private readonly first: AbortSignal,
    private readonly second: AbortSignal,
  ) {
    if (first.aborted) this.controller.abort(first.reason);
    else if (second.aborted) this.controller.abort(second.reason);
    else {
      first.addEventListener('abort', this.onAbort);
      second.addEventListener('abort', this.onAbort);
    }
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  release(): void {
    this.first.removeEventListener('abort', this.onAbort);
    this.second.removeEventListener('abort', this.onAbort);
  }
}
