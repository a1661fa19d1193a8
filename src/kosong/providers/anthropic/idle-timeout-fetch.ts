/** The response body delivered nothing for longer than the allowed idle time. */
export class BodyIdleTimeoutError extends Error {
  override name = 'BodyIdleTimeoutError';
  constructor(readonly idleMs: number) {
    super(`No data arrived from the server for ${idleMs} ms.`);
  }
}

type Fetch = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

/**
 * Wraps `fetch` so that a response body that stalls fails instead of hanging forever.
 *
 * The SDK's own timeout stops at the response headers; an SSE stream that goes quiet afterwards
 * would block the agent indefinitely. Every chunk on the wire (the server's keep-alive pings
 * included) resets the clock, so only a truly silent connection trips it.
 */
export function withBodyIdleTimeout(fetchImpl: Fetch, idleMs: number): Fetch {
  return async (input, init) => {
    const response = await fetchImpl(input, init);
    if (!response.body) return response;
    return new Response(guardBody(response.body, idleMs), {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  };
}

function guardBody(source: ReadableStream<Uint8Array>, idleMs: number): ReadableStream<Uint8Array> {
  const reader = source.getReader();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const stalled = new Promise<never>((_resolve, reject) => {
        timer = setTimeout(() => reject(new BodyIdleTimeoutError(idleMs)), idleMs);
      });
      try {
        const chunk = await Promise.race([reader.read(), stalled]);
        if (chunk.done) controller.close();
        else controller.enqueue(chunk.value);
      } catch (error) {
        // Release the socket before reporting; the pending read settles once the source is cancelled.
        reader.cancel(error).catch(() => {});
        controller.error(error);
      } finally {
        clearTimeout(timer);
      }
    },
    cancel(reason) {
      return reader.cancel(reason);
    },
  });
}
