import type { ServerResponse } from 'node:http';
import { type Responder, startSSE } from '../../../../../test/support/loopback-server.js';

/** One event of the Anthropic Messages stream, as the API sends it. */
export interface AnthropicEvent {
  event: string;
  data: Record<string, unknown>;
}

const ev = (event: string, data: Record<string, unknown>): AnthropicEvent => ({
  event,
  data: { type: event, ...data },
});

export function messageStart(
  id: string,
  usage: { input_tokens: number; cache_read_input_tokens?: number; cache_creation_input_tokens?: number } = {
    input_tokens: 10,
  },
): AnthropicEvent {
  return ev('message_start', {
    message: {
      id,
      type: 'message',
      role: 'assistant',
      model: 'claude-test',
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: { cache_read_input_tokens: 0, cache_creation_input_tokens: 0, output_tokens: 1, ...usage },
    },
  });
}

export function textBlock(index: number, chunks: string[]): AnthropicEvent[] {
  return [
    ev('content_block_start', { index, content_block: { type: 'text', text: '' } }),
    ...chunks.map((text) => ev('content_block_delta', { index, delta: { type: 'text_delta', text } })),
    ev('content_block_stop', { index }),
  ];
}

export function thinkingBlock(index: number, chunks: string[], signature: string): AnthropicEvent[] {
  return [
    ev('content_block_start', { index, content_block: { type: 'thinking', thinking: '', signature: '' } }),
    ...chunks.map((thinking) =>
      ev('content_block_delta', { index, delta: { type: 'thinking_delta', thinking } }),
    ),
    ev('content_block_delta', { index, delta: { type: 'signature_delta', signature } }),
    ev('content_block_stop', { index }),
  ];
}

export function redactedThinkingBlock(index: number, data: string): AnthropicEvent[] {
  return [
    ev('content_block_start', { index, content_block: { type: 'redacted_thinking', data } }),
    ev('content_block_stop', { index }),
  ];
}

export function toolUseBlock(index: number, id: string, name: string, argChunks: string[]): AnthropicEvent[] {
  return [
    ev('content_block_start', { index, content_block: { type: 'tool_use', id, name, input: {} } }),
    ...argChunks.map((partial_json) =>
      ev('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json } }),
    ),
    ev('content_block_stop', { index }),
  ];
}

export function messageDelta(stopReason: string, outputTokens: number): AnthropicEvent {
  return ev('message_delta', {
    delta: { stop_reason: stopReason, stop_sequence: null },
    usage: { output_tokens: outputTokens },
  });
}

export const messageStop = (): AnthropicEvent => ev('message_stop', {});
export const ping = (): AnthropicEvent => ev('ping', {});

export function errorEvent(type: string, message: string): AnthropicEvent {
  return { event: 'error', data: { type: 'error', error: { type, message } } };
}

/** Splits a string into pieces of at most `size` characters. */
export function slices(text: string, size: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

export interface StreamScript {
  headers?: Record<string, string>;
  /** Writes each event in pieces of this many characters, so events straddle network writes. */
  pieceSize?: number;
  /** What happens after the last event: a clean end (default), a dropped connection, or silence. */
  ending?: 'end' | 'drop' | 'hold';
  /** Called once every event has been flushed to the socket. */
  onFlushed?: () => void;
}

/** A responder that plays `events` as an Anthropic SSE stream. */
export function sseResponder(events: AnthropicEvent[], script: StreamScript = {}): Responder {
  return async (_req, res) => {
    startSSE(res, script.headers);
    for (const { event, data } of events) {
      const raw = `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
      for (const piece of script.pieceSize ? slices(raw, script.pieceSize) : [raw]) await write(res, piece);
    }
    script.onFlushed?.();
    switch (script.ending ?? 'end') {
      case 'end':
        res.end();
        return;
      case 'drop':
        res.socket?.destroy();
        return;
      case 'hold':
        await closed(res);
    }
  };
}

/** A responder that never answers, until the client goes away. */
export const silentResponder: Responder = (_req, res) => closed(res);

function write(res: ServerResponse, chunk: string): Promise<void> {
  return new Promise((resolve, reject) => res.write(chunk, (error) => (error ? reject(error) : resolve())));
}

/** Resolves when the client side of `res` has gone (aborted, timed out, or finished). */
export function closed(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    if (res.destroyed || res.socket?.destroyed) resolve();
    else res.on('close', () => resolve());
  });
}
