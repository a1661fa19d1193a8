import { OAuthError } from '../../../auth/device-flow.js';
import { ChatProviderError, isAbortError } from '../../../kosong/errors.js';
import {
  describeTurnError,
  LLMNotSet,
  LLMNotSupported,
  MaxStepsReached,
  RunCancelled,
} from '../../../soul/errors.js';
import { EmptyPromptError } from '../../../soul/prompt-checks.js';
import { ErrorCodes, llmNotSetError, MethodError } from './jsonrpc.js';

export type PromptResult =
  | { status: 'finished' }
  | { status: 'cancelled' }
  | { status: 'max_steps_reached'; steps: number };

/**
 * What a `prompt` answers when its turn did not finish normally: a result for a cancelled turn or one
 * that ran out of steps, else a MethodError with the wire-mode error code for the failure.
 */
export function promptFailure(error: unknown, cancelled: boolean, llmNotSetMessage: string): PromptResult {
  if (error instanceof RunCancelled || (cancelled && isAbortError(error))) return { status: 'cancelled' };
  if (error instanceof MaxStepsReached) return { status: 'max_steps_reached', steps: error.maxSteps };
  if (error instanceof EmptyPromptError) throw new MethodError(ErrorCodes.INVALID_PARAMS, error.message);
  if (error instanceof OAuthError) {
    throw new MethodError(
      ErrorCodes.AUTH_EXPIRED,
      `Authentication failed. Your login session may have expired. Please run "kimi-ts login" to sign in again. (${error.message})`,
    );
  }
  if (error instanceof LLMNotSet) throw llmNotSetError(llmNotSetMessage || error.message);
  if (error instanceof LLMNotSupported) throw new MethodError(ErrorCodes.LLM_NOT_SUPPORTED, error.message);
  if (error instanceof ChatProviderError)
    throw new MethodError(ErrorCodes.CHAT_PROVIDER_ERROR, `${error.name}: ${describeTurnError(error)}`);
  throw new MethodError(ErrorCodes.INTERNAL_ERROR, describeInternalError(error));
}

/** `"Class: message"`, as Kimi CLI reports an unexpected error. */
export function describeInternalError(error: unknown): string {
  if (error instanceof Error) return `${error.constructor.name || error.name}: ${error.message}`;
  return `Error: ${String(error)}`;
}
