import type { ServerResponse } from 'node:http';
import type { Responder } from '../../../../../test/support/loopback-server.js';

/** How a stream ends: cleanly, with the connection dropped, or never (the client must give up). */
export type StreamEnding = 'end' | 'drop' | 'hold';

/** A responder that streams `chunks` as Gemini's `alt=sse` answer (one JSON response per event). */
export function geminiStream(chunks: readonly object[], ending: StreamEnding = 'end'): Responder {
  return async (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    for (const chunk of chunks) await write(res, `data: ${JSON.stringify(chunk)}\r\n\r\n`);
    if (ending === 'end') res.end();
    else if (ending === 'drop') res.socket?.destroy();
    else await new Promise<void>((resolve) => res.on('close', () => resolve()));
  };
}

/** A responder answering `status` with Google's JSON error body. */
export function geminiError(
  status: number,
  message: string,
  headers: Record<string, string> = {},
): Responder {
  return (_req, res) => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(JSON.stringify({ error: { code: status, message, status: 'ERROR' } }));
  };
}

/** A chunk with the given model parts (and optionally usage and the response id). */
export function modelChunk(parts: object[], extra: Record<string, unknown> = {}): object {
  return { candidates: [{ content: { role: 'model', parts }, index: 0 }], responseId: 'resp-1', ...extra };
}

function write(res: ServerResponse, text: string): Promise<void> {
  return new Promise((resolve) => {
    if (res.write(text)) resolve();
    else res.once('drain', () => resolve());
  });
}
