import Anthropic from '@anthropic-ai/sdk';
import {
  APIConnectionError,
  APIStatusError,
  APITimeoutError,
  ChatProviderError,
  describeErrorWithCause,
  isAbortError,
  parseRetryAfter,
  redactSecret,
} from '../../errors.js';
import { BodyIdleTimeoutError } from './idle-timeout-fetch.js';

/** Where the failure happened: opening the call, or reading its event stream. */
export type FailurePhase = 'request' | 'stream';

/**
 * HTTP statuses for the error types an SSE `error` event carries. The API sends these mid-stream
 * with a 200 already on the wire, so the type is all there is to classify them by (an
 * `overloaded_error` must stay retryable like the 529 it stands for).
 */
const STATUS_BY_ERROR_TYPE: Readonly<Record<string, number>> = {
  invalid_request_error: 400,
  authentication_error: 401,
  billing_error: 402,
  permission_error: 403,
  not_found_error: 404,
  conflict_error: 409,
  request_too_large: 413,
  rate_limit_error: 429,
  api_error: 500,
  timeout_error: 504,
  overloaded_error: 529,
};

/**
 * Maps whatever the SDK (or the stream under it) threw onto kosong's typed errors. Abort errors
 * pass through unchanged so cancellation stays cancellation. `secret` is scrubbed from messages.
 */
export function toChatProviderError(error: unknown, phase: FailurePhase, secret?: string): Error {
  if (error instanceof ChatProviderError || isAbortError(error)) return error as Error;
  const scrub = (text: string): string => redactSecret(text, secret);

  if (error instanceof BodyIdleTimeoutError) {
    return new APITimeoutError(`The Anthropic API stopped sending data: ${error.message}`);
  }
  if (error instanceof Anthropic.APIConnectionTimeoutError) {
    return new APITimeoutError(`The Anthropic API request timed out: ${scrub(error.message)}`);
  }
  if (error instanceof Anthropic.APIConnectionError) {
    return new APIConnectionError(
      `Could not reach the Anthropic API: ${scrub(describeErrorWithCause(error))}`,
    );
  }
  if (error instanceof Anthropic.APIError) {
    const requestId = error.requestID ?? null;
    if (typeof error.status === 'number') {
      return new APIStatusError(
        scrub(error.message),
        error.status,
        requestId,
        parseRetryAfter(error.headers),
      );
    }
    // An SSE `error` event: the HTTP status was 200, the failure is in the body.
    const type = error.type ?? 'unknown_error';
    const message = scrub(
      `The Anthropic API stream failed with ${type}: ${error.apiMessage ?? error.message}`,
    );
    const status = STATUS_BY_ERROR_TYPE[type];
    return status === undefined
      ? new APIConnectionError(message)
      : new APIStatusError(message, status, requestId);
  }
  if (phase === 'stream') {
    return new APIConnectionError(
      `The Anthropic API stream broke off: ${scrub(describeErrorWithCause(error))}`,
    );
  }
  return new ChatProviderError(`The Anthropic API request failed: ${scrub(describeErrorWithCause(error))}`);
}
