import type { ServerResponse } from 'node:http';
import { type Responder, startSSE, writeSSE } from '../../../../../test/support/loopback-server.js';

/** Chunks in the shape OpenAI and Kimi stream them. */
export const CHUNK_ID = 'chatcmpl-test-1';

export function deltaChunk(
  delta: Record<string, unknown>,
  finishReason: string | null = null,
): Record<string, unknown> {
  return {
    id: CHUNK_ID,
    object: 'chat.completion.chunk',
    created: 1_700_000_000,
    model: 'test-model',
    choices: [{ index: 0, delta, finish_reason: finishReason }],
  };
}

export const textChunk = (text: string) => deltaChunk({ content: text });

export const finishChunk = (reason = 'stop') => deltaChunk({}, reason);

export function toolHeaderChunk(index: number, id: string, name: string, args = ''): Record<string, unknown> {
  return deltaChunk({
    tool_calls: [{ index, id, type: 'function', function: { name, arguments: args } }],
  });
}

export function toolArgsChunk(index: number, args: string): Record<string, unknown> {
  return deltaChunk({ tool_calls: [{ index, function: { arguments: args } }] });
}

/** The final chunk that `stream_options.include_usage` asks for: no choices, only usage. */
export function usageChunk(usage: Record<string, unknown>): Record<string, unknown> {
  return {
    id: CHUNK_ID,
    object: 'chat.completion.chunk',
    created: 1_700_000_000,
    model: 'test-model',
    choices: [],
    usage,
  };
}

/** Splits a string into pieces of `size` characters, as a server streams arguments. */
export function pieces(text: string, size: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

/**
 * One step of a scripted stream: a chunk to send, a promise to wait for before going on, or
 * `'drop'` to cut the connection where it stands.
 */
export type StreamStep = Record<string, unknown> | Promise<unknown> | 'drop';

export interface ChatStreamOptions {
  headers?: Record<string, string>;
  /** Resolved when the client has gone away (closed or aborted the response). */
  onClose?: () => void;
}

/** Answers with the given steps as a Chat Completions SSE stream ending in `data: [DONE]`. */
export function chatStream(steps: StreamStep[], options: ChatStreamOptions = {}): Responder {
  return async (_req, res: ServerResponse) => {
    if (options.onClose) res.on('close', options.onClose);
    startSSE(res, { 'x-request-id': 'req-stream-1', ...options.headers });
    for (const step of steps) {
      if (step === 'drop') {
        res.destroy();
        return;
      }
      if (step instanceof Promise) await step;
      else writeSSE(res, step);
    }
    writeSSE(res, '[DONE]');
    res.end();
  };
}
