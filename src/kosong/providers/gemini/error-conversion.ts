import { ApiError } from '@google/genai';
import {
  APIConnectionError,
  APIStatusError,
  APITimeoutError,
  ChatProviderError,
  describeErrorWithCause,
  isAbortError,
  redactSecret,
} from '../../errors.js';

/** The idle timer fired: no response, or no chunk, for `timeoutMs`. */
export class GeminiIdleTimeout extends Error {
  override name = 'GeminiIdleTimeout';
}

/**
 * Maps what the Gemini SDK (or fetch under it) threw onto kosong's typed errors. An abort of the
 * caller's own signal stays an abort; the SDK's `ApiError` carries the HTTP status; fetch's
 * `TypeError`s are connection failures. `secret` is scrubbed from messages.
 */
export function toChatProviderError(error: unknown, secret: string | undefined, signal?: AbortSignal): Error {
  if (signal?.aborted && isAbortError(error)) return error as Error;
  if (error instanceof ChatProviderError) return error;
  const scrub = (text: string): string => redactSecret(text, secret);
  if (error instanceof GeminiIdleTimeout || (isAbortError(error) && !signal?.aborted)) {
    return new APITimeoutError(`The Gemini API stopped answering: ${scrub(describeErrorWithCause(error))}`);
  }
  if (error instanceof ApiError) {
    return new APIStatusError(
      scrub(`The Gemini API answered ${error.status}: ${apiMessage(error)}`),
      error.status,
      null,
    );
  }
  if (error instanceof TypeError) {
    return new APIConnectionError(
      `Could not talk to the Gemini API: ${scrub(describeErrorWithCause(error))}`,
    );
  }
  if (error instanceof SyntaxError) {
    return new ChatProviderError(`The Gemini API sent a malformed chunk: ${scrub(error.message)}`);
  }
  return new ChatProviderError(`The Gemini API request failed: ${scrub(describeErrorWithCause(error))}`);
}

/** The `error.message` of the JSON body the SDK puts in its message, or the message itself. */
function apiMessage(error: ApiError): string {
  try {
    const body = JSON.parse(error.message) as { error?: { message?: unknown } };
    if (typeof body.error?.message === 'string') return body.error.message;
  } catch {
    // not JSON
  }
  return error.message;
}
