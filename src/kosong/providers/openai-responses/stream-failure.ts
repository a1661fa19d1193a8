import { APIStatusError, ChatProviderError } from '../../errors.js';

/** Replaces every occurrence of the API key in a text with a mask. */
export function redactKey(text: string, apiKey: string | undefined): string {
  return apiKey && apiKey.length >= 4 ? text.split(apiKey).join('[redacted]') : text;
}

/**
 * In-stream failures (`response.failed`, `error` events) carry an error code instead of an HTTP
 * status. Codes that mean "try again" become the status they stand for, so the soul's retry
 * policy treats them like their HTTP twins; everything else is a plain provider error.
 */
const statusForStreamErrorCode: Record<string, number> = {
  rate_limit_exceeded: 429,
  server_error: 500,
  server_is_overloaded: 503,
  overloaded: 503,
};

export function streamFailureError(
  code: string | null | undefined,
  message: string | null | undefined,
  requestId: string | null,
  apiKey: string | undefined,
): ChatProviderError {
  const text = redactKey(
    `The Responses API reported a failure${code ? ` (${code})` : ''}: ${message || 'no details given'}`,
    apiKey,
  );
  const status = code ? statusForStreamErrorCode[code] : undefined;
  return status === undefined ? new ChatProviderError(text) : new APIStatusError(text, status, requestId);
}
