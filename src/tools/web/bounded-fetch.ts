import type { FetchLike } from './pinned-fetch.js';

/**
 * One HTTP request with every wait bounded: the response head must arrive in time, the body may not
 * stall or run on forever, and it may not grow past a size limit. The caller's signal cancels it at
 * any point. Nothing (timer, listener, open connection) is left behind when it settles.
 */

export interface HttpLimits {
  /** Connecting plus waiting for the status line and headers. */
  headersTimeoutMs: number;
  /** The longest pause allowed between two chunks of the body. */
  idleTimeoutMs: number;
  /** The whole request, body included. */
  totalTimeoutMs: number;
  maxBodyBytes: number;
}

export type HttpTimeoutPhase = 'headers' | 'body' | 'total';

export class HttpTimeoutError extends Error {
  override name = 'HttpTimeoutError';
  constructor(
    readonly phase: HttpTimeoutPhase,
    readonly timeoutMs: number,
  ) {
    super(`${TIMEOUT_WORDS[phase]} within ${formatSeconds(timeoutMs)}`);
  }
}

const TIMEOUT_WORDS: Record<HttpTimeoutPhase, string> = {
  headers: 'the server did not answer',
  body: 'the server stopped sending data and did not resume',
  total: 'the request did not complete',
};

export class BodyTooLargeError extends Error {
  override name = 'BodyTooLargeError';
  constructor(readonly limitBytes: number) {
    super(`the response body is larger than ${formatBytes(limitBytes)}`);
  }
}

export interface BoundedRequest {
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  body?: string | undefined;
}

export interface BoundedResponse {
  status: number;
  /** The final URL, after redirects. */
  url: string;
  headers: Headers;
  /** Empty when `readBody` declined to read it. */
  body: Uint8Array;
}

export interface BoundedFetchOptions {
  limits: HttpLimits;
  signal: AbortSignal;
  /** Whether to read the body for this status (e.g. not for errors). Default: always. */
  readBody?: ((status: number) => boolean) | undefined;
  /**
   * Decides each redirect before it is followed (the policy judged only the first URL). Without
   * it, redirects are followed as fetch does.
   */
  allowRedirect?: ((to: URL) => Promise<boolean>) | undefined;
  /** Sends each request (default: global fetch); `pinnedFetch` keeps it on checked addresses. */
  fetch?: FetchLike | undefined;
}

/** The most redirects followed one by one when `allowRedirect` judges them. */
const MAX_REDIRECTS = 10;

export class RedirectRefusedError extends Error {
  override name = 'RedirectRefusedError';
  constructor(readonly location: string) {
    super(`the server redirected to ${location}, which was not approved`);
  }
}

/**
 * Sends the request and reads the whole body within `limits`. Rejects with `HttpTimeoutError`,
 * `BodyTooLargeError`, the network error, or, when `signal` aborts, the signal's reason.
 */
export async function boundedFetch(
  url: string,
  request: BoundedRequest,
  { limits, signal, readBody = () => true, allowRedirect, fetch = globalThis.fetch }: BoundedFetchOptions,
): Promise<BoundedResponse> {
  signal.throwIfAborted();
  const controller = new AbortController();
  let failure: Error | null = null;
  const fail = (error: Error): void => {
    failure ??= error;
    controller.abort(error);
  };
  const onCancel = (): void => controller.abort(signal.reason);
  signal.addEventListener('abort', onCancel, { once: true });
  const totalTimer = setTimeout(
    () => fail(new HttpTimeoutError('total', limits.totalTimeoutMs)),
    limits.totalTimeoutMs,
  );
  let phaseTimer = setTimeout(
    () => fail(new HttpTimeoutError('headers', limits.headersTimeoutMs)),
    limits.headersTimeoutMs,
  );
  let settled = false;
  try {
    let current = url;
    let response = await fetch(current, {
      method: request.method,
      headers: request.headers,
      body: request.body,
      redirect: allowRedirect ? 'manual' : 'follow',
      signal: controller.signal,
    });
    for (let hops = 0; allowRedirect && isRedirect(response.status); hops++) {
      const location = response.headers.get('location');
      if (!location || hops >= MAX_REDIRECTS) break;
      const next = new URL(location, current);
      await response.body?.cancel();
      if (!(await allowRedirect(next))) throw new RedirectRefusedError(next.href);
      current = next.href;
      response = await fetch(current, {
        method: 'GET',
        headers: request.headers,
        redirect: 'manual',
        signal: controller.signal,
      });
    }
    clearTimeout(phaseTimer);
    const head = { status: response.status, url: response.url || current, headers: response.headers };
    if (!readBody(response.status)) return { ...head, body: new Uint8Array() };

    const declared = Number(response.headers.get('content-length') ?? Number.NaN);
    if (Number.isFinite(declared) && declared > limits.maxBodyBytes) {
      throw new BodyTooLargeError(limits.maxBodyBytes);
    }
    const chunks: Uint8Array[] = [];
    let size = 0;
    if (response.body) {
      const reader = response.body.getReader();
      for (;;) {
        phaseTimer = setTimeout(
          () => fail(new HttpTimeoutError('body', limits.idleTimeoutMs)),
          limits.idleTimeoutMs,
        );
        const { done, value } = await reader.read();
        clearTimeout(phaseTimer);
        if (done) break;
        size += value.byteLength;
        if (size > limits.maxBodyBytes) throw new BodyTooLargeError(limits.maxBodyBytes);
        chunks.push(value);
      }
    }
    settled = true;
    return { ...head, body: concatBytes(chunks, size) };
  } catch (error) {
    if (signal.aborted) throw signal.reason;
    if (failure) throw failure;
    throw error;
  } finally {
    clearTimeout(totalTimer);
    clearTimeout(phaseTimer);
    signal.removeEventListener('abort', onCancel);
    // Closes the connection of a body we stopped reading (too large, declined, failed).
    if (!settled) controller.abort(failure ?? new Error('request finished'));
  }
}

function isRedirect(status: number): boolean {
  return status === 301 || status === 302 || status === 303 || status === 307 || status === 308;
}

/** The message of a network failure, with the low-level cause fetch hides in `cause`. */
export function describeNetworkError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause;
  const detail =
    cause instanceof Error
      ? ((cause as NodeJS.ErrnoException).code ?? cause.message)
      : typeof cause === 'string'
        ? cause
        : '';
  return detail && !error.message.includes(detail) ? `${error.message} (${detail})` : error.message;
}

function concatBytes(chunks: readonly Uint8Array[], size: number): Uint8Array {
  const out = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return out;
}

export function formatSeconds(ms: number): string {
  return `${Number((ms / 1000).toFixed(3))} s`;
}

export function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024 && bytes % (1024 * 1024) === 0) return `${bytes / (1024 * 1024)} MiB`;
  if (bytes >= 1024 && bytes % 1024 === 0) return `${bytes / 1024} KiB`;
  return `${bytes} bytes`;
}
