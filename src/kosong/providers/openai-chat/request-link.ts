/**
 * The abort signal of one HTTP request, following the caller's signal.
 *
 * The SDK adds an abort listener to the signal it is given and never removes it. A turn's signal
 * lives through up to a thousand steps, so handing it over directly would pile up listeners (and
 * the requests they hold) for the whole turn; the SDK gets this per-request signal instead, and our
 * one listener on the caller's signal is removed when the request is done with.
 */
export class RequestLink {
  private readonly controller = new AbortController();
  private readonly forward = (): void => this.controller.abort(this.callerSignal?.reason);

  constructor(readonly callerSignal: AbortSignal | undefined) {
    if (callerSignal?.aborted) this.forward();
    else callerSignal?.addEventListener('abort', this.forward, { once: true });
  }

  /** The signal to give the SDK. */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** Ends the HTTP exchange without the caller having cancelled (e.g. a stalled stream). */
  abortRequest(): void {
    this.controller.abort();
  }

  release(): void {
    this.callerSignal?.removeEventListener('abort', this.forward);
  }
}
