import { z } from 'zod';
import { APITimeoutError, abortErrorFor, ChatProviderError } from '../../errors.js';
import type { ProviderPart, TokenUsage } from '../../message.js';
import type { StreamedMessage } from '../../provider.js';
import { mapOpenAIError } from '../sdk-errors.js';
import { type ChatChunk, chatChunkSchema, plainChatChunk } from './chat-chunk.js';
import { ChatChunkAssembler } from './chunk-assembler.js';
import type { RequestLink } from './request-link.js';

export interface ChatStreamContext {
  /** The delta field that carries reasoning (`''` for none). */
  reasoningKey: string;
  apiKey: string | undefined;
  /** How long the server may stay silent between chunks. */
  idleTimeoutMs: number;
  link: RequestLink;
}

/** One streamed Chat Completions answer, read chunk by chunk from the SDK's stream. */
export class ChatCompletionStream implements StreamedMessage {
  private readonly assembler: ChatChunkAssembler;

  constructor(
    private readonly chunks: AsyncIterable<unknown>,
    private readonly context: ChatStreamContext,
  ) {
    this.assembler = new ChatChunkAssembler(context.reasoningKey);
  }

  get id(): string | null {
    return this.assembler.id;
  }

  get usage(): TokenUsage | null {
    return this.assembler.usage;
  }

  async *[Symbol.asyncIterator](): AsyncIterator<ProviderPart> {
    const { link, apiKey, idleTimeoutMs } = this.context;
    // The SDK's timeout ends when the headers arrive; a server that then goes quiet would hold
    // the turn forever, so the wait for each chunk has its own limit. A chunk only stamps the time
    // (a timer cleared and set again for each was a timer list made and dropped per chunk); the one
    // timer, when it fires, ends the request or waits out the rest from the last chunk.
    let stalled = false;
    let watchdog: NodeJS.Timeout | undefined;
    let lastChunkAt = performance.now();
    /** A chunk's parts are with the consumer: no silence is counted meanwhile. */
    let taking = false;
    const arm = (ms: number): void => {
      watchdog = setTimeout(() => {
        if (taking) return arm(idleTimeoutMs);
        const silent = performance.now() - lastChunkAt;
        if (silent < idleTimeoutMs) return arm(idleTimeoutMs - silent);
        stalled = true;
        link.abortRequest();
      }, ms);
    };
    const stalledError = (): APITimeoutError =>
      new APITimeoutError(`The API sent nothing for ${idleTimeoutMs / 1000} s in the middle of its answer.`);
    try {
      arm(idleTimeoutMs);
      try {
        for await (const raw of this.chunks) {
          // The time a consumer takes with the parts is not silence: counted from when it is done.
          taking = true;
          for (const part of this.assembler.push(checkedChunk(raw))) yield part;
          taking = false;
          lastChunkAt = performance.now();
        }
      } catch (error) {
        if (stalled) throw stalledError();
        throw mapOpenAIError(error, { signal: link.callerSignal, apiKey });
      }
      // The SDK ends an aborted stream quietly, as if it were complete; it was not.
      if (stalled) throw stalledError();
      if (link.callerSignal?.aborted) throw abortErrorFor(link.callerSignal);
      for (const part of this.assembler.finish()) yield part;
    } finally {
      clearTimeout(watchdog);
      link.release();
    }
  }
}

/** The chunk, checked: by hand when it is plainly well formed, else by its schema (which words the error). */
function checkedChunk(raw: unknown): ChatChunk {
  const plain = plainChatChunk(raw);
  if (plain !== null) return plain;
  const chunk = chatChunkSchema().safeParse(raw);
  if (!chunk.success) {
    throw new ChatProviderError(
      `The API sent a stream chunk of unexpected shape: ${z.prettifyError(chunk.error)}`,
    );
  }
  return chunk.data;
}
