/** Redirects followed at most (fetch's own limit is 20; an API endpoint needs one or two). */
const MAX_REDIRECTS = 5;

/**
 * fetch with a string body sent as bytes, following a redirect only to the same origin and only one that
 * keeps the method and body (307, 308). fetch itself follows a redirect anywhere and strips only
 * `Authorization` on the way: a key in a custom header (`api-key`, a gateway's `x-api-key`) and
 * the whole conversation went to whichever host the endpoint named. And with a body given as bytes
 * its redirect failed outright ("detached ArrayBuffer"): each hop here sends a fresh copy. Any
 * other redirect is answered as it came (the SDK reports its status).
 */
export async function sameOriginFetch(input: string | URL | Request, init?: RequestInit): Promise<Response> {
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
