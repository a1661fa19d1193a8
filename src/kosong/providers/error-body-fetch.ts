import { sameOriginFetch } from './same-origin-fetch.js';

/**
 * `fetch` for the OpenAI SDK that sends the request body as bytes and keeps the server's words in an
 * error.
 *
 * The SDK hands over the body as the JSON string of the whole request (system prompt, tool schemas,
 * the history: ~100 KiB a step, more as the session grows). Given a string, undici first copies it
 * (`toWellFormed`, to replace lone surrogates) and then encodes the copy; `Buffer.from` encodes it
 * once, lone surrogates to U+FFFD as well, so the bytes sent are the same with one copy fewer.
 *
 * The error side: The SDK reads the message of
 * an error response only from `{"error": {"message": …}}`; a body that is a JSON string
 * (`"Invalid Authentication"`), `{"message": …}`, `{"detail": …}` or `{"error": "…"}` came out as
 * "401 status code (no body)". Such a body is rewritten into the SDK's shape; any other passes as is.
 */
export const errorBodyFetch = async (
  input: string | URL | Request,
  init?: RequestInit,
): Promise<Response> => {
  const response = await sameOriginFetch(input, init);
  if (response.ok) return response;
  const text = await boundedText(response);
  const message = serverMessage(text);
  const headers = new Headers(response.headers);
  // The body was decoded and may change length: the old framing headers no longer describe it.
  headers.delete('content-length');
  headers.delete('content-encoding');
  if (message !== null) headers.set('content-type', 'application/json');
  return new Response(message === null ? text : JSON.stringify({ error: { message } }), {
    status: response.status,
    statusText: response.statusText,
    headers,
  });
};

/** The most of an error body read: its words fit in far less; a server may send without end. */
const ERROR_BODY_MAX_BYTES = 1024 * 1024;

/**
 * The error body as text, at most ERROR_BODY_MAX_BYTES of it (the rest is not read: the stream is
 * cancelled). `response.text()` read a body that never ended into memory until the process died.
 */
async function boundedText(response: Response): Promise<string> {
  if (!response.body) return '';
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  let read = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return text + decoder.decode();
    const room = ERROR_BODY_MAX_BYTES - read;
    if (value.length >= room) {
      await reader.cancel().catch(() => undefined);
      return `${text}${decoder.decode(value.subarray(0, room))} [error body cut at 1 MiB]`;
    }
    read += value.length;
    text += decoder.decode(value, { stream: true });
  }
}

/** The message of an error body the SDK would not find one in; null when it would (or none is there). */
export function serverMessage(text: string): string | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof parsed === 'string') return parsed.trim() || null;
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return null;
  const body = parsed as Record<string, unknown>;
  if (typeof body.error === 'string') return body.error;
  if (body.error !== undefined && body.error !== null) return null;
  for (const key of ['message', 'detail', 'msg']) {
    const value = body[key];
    if (typeof value === 'string' && value.trim()) return value;
  }
  return null;
}
