// The SDK's error classes alone (the ones `new OpenAI()` throws): the SDK's main module is ~170
// modules that a chat request over node:http never needs (openai-chat/chat-http.ts).
import * as SdkErrors from 'openai/core/error';
import {
  APIConnectionError,
  APIStatusError,
  APITimeoutError,
  abortErrorFor,
  ChatProviderError,
  isAbortError,
  parseRetryAfter,
} from '../errors.js';

export interface ErrorMappingContext {
  /** The caller's signal: when it has fired, any failure is reported as its abort. */
  signal?: AbortSignal | undefined;
  /** Removed from every message, in case a server echoes the key back. */
  apiKey?: string | undefined;
}

/**
 * Maps whatever the `openai` SDK (or the fetch under it) threw onto kosong's typed errors.
 * Aborts stay aborts: they come back as an `AbortError`, never as a provider error, so the soul
 * tells a cancel from a failure.
 */
export function mapOpenAIError(error: unknown, context: ErrorMappingContext = {}): Error {
  const { signal, apiKey } = context;
  if (signal?.aborted || isAbortError(error) || error instanceof SdkErrors.APIUserAbortError) {
    return abortErrorFor(signal, error);
  }
  if (error instanceof ChatProviderError) return error;
  const clean = (text: string): string => redact(text, apiKey);

  if (error instanceof SdkErrors.APIConnectionTimeoutError) {
    return new APITimeoutError(clean(`The request timed out: ${error.message}`), { cause: error });
  }
  if (error instanceof SdkErrors.APIConnectionError) {
    return new APIConnectionError(clean(connectionMessage(error)), { cause: error });
  }
  if (error instanceof SdkErrors.APIError) {
    if (typeof error.status === 'number') {
      const requestId = error.headers?.get('x-request-id') ?? error.requestID ?? null;
      return new APIStatusError(
        clean(error.message),
        error.status,
        requestId,
        parseRetryAfter(error.headers),
      );
    }
    // An error object sent inside an otherwise successful stream.
    return new ChatProviderError(clean(`The API reported an error mid-stream: ${error.message}`), {
      cause: error,
    });
  }
  if (error instanceof SyntaxError) {
    return new ChatProviderError(clean(`The API sent a malformed stream event: ${error.message}`), {
      cause: error,
    });
  }
  if (isBodyReadFailure(error)) {
    return new APIConnectionError(
      clean(`The connection broke while reading the response: ${describe(error)}`),
      {
        cause: error,
      },
    );
  }
  return new ChatProviderError(clean(`Unexpected provider error: ${describe(error)}`), { cause: error });
}

/**
 * Node's fetch reports a body that stopped mid-way as `TypeError: terminated` (or a socket error
 * in `cause`); the SDK passes those through untouched while it iterates the stream.
 */
function isBodyReadFailure(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  if (error instanceof TypeError) return true;
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' && (code.startsWith('UND_ERR') || code.startsWith('E'));
}

function connectionMessage(error: InstanceType<typeof SdkErrors.APIConnectionError>): string {
  const cause = error.cause instanceof Error ? describe(error.cause) : '';
  return cause ? `${error.message} (${cause})` : error.message;
}

function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause instanceof Error ? `: ${error.cause.message}` : '';
  return `${error.message}${cause}`;
}

function redact(text: string, apiKey: string | undefined): string {
  if (!apiKey || apiKey.length < 4) return text;
  return text.split(apiKey).join('[redacted]');
}
