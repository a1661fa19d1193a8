import { APIConnectionError, APITimeoutError, abortErrorFor } from '../../errors.js';
import type { ProviderPart, TokenUsage } from '../../message.js';
import type { StreamedMessage } from '../../provider.js';
import { mapOpenAIError } from '../sdk-errors.js';
import { ResponsesStreamConverter } from './stream-converter.js';

export interface ResponsesStreamOptions {
  /** The events as the SDK yields them. */
  events: AsyncIterable<unknown>;
  /** Aborting it ends the HTTP request (linked to the caller's signal by the provider). */
  controller: AbortController;
  /** The caller's signal. */
  signal: AbortSignal | undefined;
  /** How long the stream may stay silent before it counts as timed out. */
  idleTimeoutMs: number;
  requestId: string | null;
  /** Masked out of error messages. */
  apiKey: string | undefined;
  /** Called once when iteration ends, however it ends. */
  onClose: () => void;
}

/**
 * One streamed Responses answer. The SDK ends iteration quietly when its request is aborted, so
 * after every read this checks who aborted: the caller (→ AbortError) or the idle timer (→ timeout).
 * The SDK's own timeout only covers the wait for the response headers; the idle timer covers a
 * stream that stops sending.
 */
export class ResponsesStreamedMessage implements StreamedMessage {
  private readonly converter: ResponsesStreamConverter;
  private isStalled = false;

  constructor(private readonly options: ResponsesStreamOptions) {
    this.converter = new ResponsesStreamConverter(options.requestId, options.apiKey);
  }

  get id(): string | null {
    return this.converter.id;
  }

  get usage(): TokenUsage | null {
    return this.converter.usage;
  }

  async *[Symbol.asyncIterator](): AsyncIterator<ProviderPart> {
    const { events, controller, signal, apiKey } = this.options;
    const iterator = events[Symbol.asyncIterator]();
    let timer: NodeJS.Timeout | undefined;
    try {
      while (true) {
        timer = setTimeout(() => {
          this.isStalled = true;
          controller.abort();
        }, this.options.idleTimeoutMs);
        let next: IteratorResult<unknown>;
        try {
          next = await iterator.next();
        } catch (error) {
          throw this.interruption() ?? mapOpenAIError(error, { signal, apiKey });
        } finally {
          clearTimeout(timer);
        }
        const interruption = this.interruption();
        if (interruption) throw interruption;
        if (next.done) break;
        yield* this.converter.handle(next.value);
        // Done at `response.completed`: a server that keeps the connection open must not stall us.
        if (this.converter.isFinished) break;
      }
      if (!this.converter.isFinished) {
        throw new APIConnectionError('The Responses API stream ended before the response was complete.');
      }
    } finally {
      clearTimeout(timer);
      if (!this.converter.isFinished) controller.abort();
      await iterator.return?.();
      this.options.onClose();
    }
  }

  private interruption(): Error | null {
    const { signal, idleTimeoutMs } = this.options;
    if (signal?.aborted) return abortErrorFor(signal);
    if (this.isStalled) {
      return new APITimeoutError(`The Responses API stream sent nothing for ${idleTimeoutMs} ms.`);
    }
    return null;
  }
}
