/**
 * Typed errors of the LLM layer. Every provider maps its SDK's errors onto these, so everything
 * above `src/kosong/providers/` reasons about failures without knowing the vendor.
 */

export class ChatProviderError extends Error {
  override name = 'ChatProviderError';
}

/** The connection failed or broke (refused, reset, dropped mid-stream). */
export class APIConnectionError extends ChatProviderError {
  override name = 'APIConnectionError';
}

/** The request did not finish in time. */
export class APITimeoutError extends ChatProviderError {
  override name = 'APITimeoutError';
}

/** The server answered with an HTTP error status. */
export class APIStatusError extends ChatProviderError {
  override name = 'APIStatusError';
  constructor(
    message: string,
    readonly statusCode: number,
    readonly requestId: string | null = null,
    /** Delay the server asked for (`Retry-After` / `retry-after-ms`), in milliseconds. */
    readonly retryAfterMs: number | null = null,
  ) {
    super(message);
  }
}

/** The model produced nothing usable (no content and no tool calls, or thinking only). */
export class APIEmptyResponseError extends ChatProviderError {
  override name = 'APIEmptyResponseError';
}

/** Parses a `Retry-After` header (seconds or HTTP date) or `retry-after-ms` into milliseconds. */
export function parseRetryAfter(
  headers: { get(name: string): string | null } | undefined | null,
): number | null {
  if (!headers) return null;
  const ms = headers.get('retry-after-ms');
  if (ms !== null && ms.trim() !== '' && Number.isFinite(Number(ms))) return Math.max(0, Number(ms));
  const value = headers.get('retry-after');
  if (value === null || value.trim() === '') return null;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, date - Date.now());
}

/** True for the error an aborted AbortSignal produces (ours or the platform's). */
export function isAbortError(error: unknown): boolean {
  return error instanceof Error && (error.name === 'AbortError' || error.name === 'APIUserAbortError');
}

/** The error to throw for an abort: the signal's own reason when it is one, else a plain AbortError. */
export function abortErrorFor(signal: AbortSignal | undefined, error?: unknown): Error {
  const reason: unknown = signal?.aborted ? signal.reason : undefined;
  if (reason instanceof Error && isAbortError(reason)) return reason;
  if (reason === undefined && error instanceof Error && error.name === 'AbortError') return error;
  const abort = new Error('The request was aborted.', { cause: reason ?? error });
  abort.name = 'AbortError';
  return abort;
}

/** An error's message with its cause's, for provider errors: `fetch failed (connect ECONNREFUSED …)`. */
export function describeErrorWithCause(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause instanceof Error ? ` (${error.cause.message})` : '';
  return `${error.message}${cause}`;
}

/** `text` with every occurrence of `secret` (an API key) replaced, so it never reaches a message. */
export function redactSecret(text: string, secret: string | undefined): string {
  return secret ? text.split(secret).join('[redacted]') : text;
}
