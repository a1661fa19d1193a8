import {
  APIConnectionError,
  APIEmptyResponseError,
  APIStatusError,
  APITimeoutError,
  ChatProviderError,
} from '../kosong/errors.js';

import type { ModelOrigin } from './model-origin.js';
/** No model is configured; the message says how to configure one. */
export class LLMNotSet extends Error {
  override name = 'LLMNotSet';
}

/** The input needs a capability (image, video, thinking) the model does not have. */
export class LLMNotSupported extends Error {
  override name = 'LLMNotSupported';
  constructor(
    readonly modelName: string,
    readonly missing: string[],
  ) {
    super(`The model \`${modelName}\` does not support: ${missing.join(', ')}.`);
  }
}

export class MaxStepsReached extends Error {
  override name = 'MaxStepsReached';
  constructor(readonly maxSteps: number) {
    super(`Max number of steps reached: ${maxSteps}.`);
  }
}

/** The run was cancelled (by the user or the client); thrown out of runSoul. */
export class RunCancelled extends Error {
  override name = 'RunCancelled';
  constructor(message = 'Interrupted by user') {
    super(message);
  }
}

const RETRYABLE_STATUSES = new Set([429, 500, 502, 503, 504]);

/**
 * Seed 002 §7.2: what a step retries. Unlike Kimi CLI, a connection or timeout error stays retryable
 * after a reconnect: the reconnect happens between attempts, and every attempt counts the same.
 */
export function isRetryableError(error: unknown): boolean {
  if (error instanceof APIConnectionError || error instanceof APITimeoutError) return true;
  if (error instanceof APIEmptyResponseError) return true;
  if (error instanceof APIStatusError) return RETRYABLE_STATUSES.has(error.statusCode);
  return false;
}

export type ApiErrorType =
  | 'rate_limit'
  | 'auth'
  | 'overloaded'
  | '5xx_server'
  | 'context_overflow'
  | '4xx_client'
  | 'network'
  | 'timeout'
  | 'empty_response'
  | 'other';

const CONTEXT_OVERFLOW =
  /context length|context_length|max(imum)?[ _]tokens|maximum context|too many tokens/i;

/** Seed 002 §7.1 (with the reference's corrections): a label for telemetry and error reports. */
export function classifyApiError(error: unknown): { errorType: ApiErrorType; statusCode: number | null } {
  if (error instanceof APIStatusError) {
    const status = error.statusCode;
    if (status === 429) return { errorType: 'rate_limit', statusCode: status };
    if (status === 401 || status === 403) return { errorType: 'auth', statusCode: status };
    if (status === 529) return { errorType: 'overloaded', statusCode: status };
    if (status >= 500) return { errorType: '5xx_server', statusCode: status };
    if (status >= 400 && CONTEXT_OVERFLOW.test(error.message))
      return { errorType: 'context_overflow', statusCode: status };
    if (status >= 400) return { errorType: '4xx_client', statusCode: status };
    return { errorType: 'other', statusCode: status };
  }
  if (error instanceof APITimeoutError) return { errorType: 'timeout', statusCode: null };
  if (error instanceof APIConnectionError) return { errorType: 'network', statusCode: null };
  if (error instanceof APIEmptyResponseError) return { errorType: 'empty_response', statusCode: null };
  return { errorType: 'other', statusCode: null };
}

/** What a user needs to understand an error that ended a turn. */
export interface TurnErrorContext {
  model: string;
  durationMs: number;
  contextTokens: number;
  /** Who serves the model: a refused key names the provider, its URL and where the key came from. */
  origin?: ModelOrigin | undefined;
}

const turnContexts = new WeakMap<object, TurnErrorContext>();

/**
 * Attaches the model, step duration and context size to an error that ends a turn. The error keeps
 * its type, so callers still branch on `APIStatusError` and the like.
 */
export function attachTurnContext(error: unknown, context: TurnErrorContext): void {
  if (typeof error === 'object' && error !== null && !turnContexts.has(error))
    turnContexts.set(error, context);
}

export function turnContextOf(error: unknown): TurnErrorContext | undefined {
  return typeof error === 'object' && error !== null ? turnContexts.get(error) : undefined;
}

/** One line for a user: the error's message plus its turn context when known. */
export function describeTurnError(error: unknown): string {
  const base = error instanceof Error ? error.message : String(error);
  const context = turnContextOf(error);
  if (!context) return base;
  const refused = refusedKeyText(error, context.origin);
  if (refused !== null) return refused;
  return `${base} (model ${context.model}, step ran ${(context.durationMs / 1000).toFixed(1)} s, context ${context.contextTokens} tokens)`;
}

/**
 * A 401/403: the key was refused. Says which provider at which URL, where the key came from and what
 * to do, with the server's own words; never the key.
 */
function refusedKeyText(error: unknown, origin: ModelOrigin | undefined): string | null {
  if (!(error instanceof APIStatusError) || (error.statusCode !== 401 && error.statusCode !== 403) || !origin)
    return null;
  const said = error.message.replace(/^\d{3}\s*/, '').trim();
  return [
    `HTTP ${error.statusCode} from ${origin.provider} at ${origin.baseUrl}: the API key was refused`,
    said ? ` (the server said: ${said})` : '',
    `. The key came from ${origin.keySource}: check it, or run \`kimi-ts login\` for Kimi Code.`,
  ].join('');
}

/** Exit code of print mode for a failure: 75 for what may succeed on a later run, else 1. */
export function exitCodeFor(error: unknown): 1 | 75 {
  if (error instanceof ChatProviderError && isRetryableStatusOrTransport(error)) return 75;
  return 1;
}

function isRetryableStatusOrTransport(error: ChatProviderError): boolean {
  if (
    error instanceof APIConnectionError ||
    error instanceof APITimeoutError ||
    error instanceof APIEmptyResponseError
  )
    return true;
  return error instanceof APIStatusError && RETRYABLE_STATUSES.has(error.statusCode);
}
