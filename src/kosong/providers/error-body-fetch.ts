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
  const response = await fetchFollowingSameOrigin(input, init);
  if (response.ok) return response;
  const text = await response.text();
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

/** Redirects followed at most (fetch's own limit is 20; an API endpoint needs one or two). */
const MAX_REDIRECTS = 5;

/**
 * fetch with the body as bytes, following a redirect only to the same origin and only one that
 * keeps the method and body (307, 308). fetch itself follows a redirect anywhere and strips only
 * `Authorization` on the way: a key in a custom header (`api-key`, a gateway's `x-api-key`) and
 * the whole conversation went to whichever host the endpoint named. And with a body given as bytes
 * its redirect failed outright ("detached ArrayBuffer"): each hop here sends a fresh copy. Any
 * other redirect is answered as it came (the SDK reports its status).
 */
async function fetchFollowingSameOrigin(
  input: string | URL | Request,
  init?: RequestInit,
): Promise<Response> {
  const body = init?.body;
  const bytes = () => (typeof body === 'string' ? Buffer.from(body, 'utf8') : body);
  if (input instanceof Request) return fetch(input, { ...init, body: bytes() });
  let url = new URL(String(input));
  for (let hop = 0; ; hop++) {
    const response = await fetch(url, { ...init, body: bytes(), redirect: 'manual' });
    const location = response.headers.get('location');
    if ((response.status !== 307 && response.status !== 308) || location === null || hop >= MAX_REDIRECTS)
      return response;
    const next = new URL(location, url);
    if (next.origin !== url.origin) return response;
    await response.body?.cancel().catch(() => undefined);
    url = next;
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
