import { APIConnectionError, APIStatusError, APITimeoutError, ChatProviderError } from '../../errors.js';
import type { StreamedPart, TokenUsage } from '../../message.js';

/**
 * How a scripted turn fails. Kept as data rather than an Error instance, so every generation gets a
 * fresh error object (with its own stack and nothing a caller attached to an earlier one).
 */
export type ScriptedFailure =
  | {
      kind: 'status';
      statusCode: number;
      message: string;
      requestId: string | null;
      retryAfterMs: number | null;
    }
  | { kind: 'connection'; message: string }
  | { kind: 'timeout'; message: string };

/** One model answer as a script describes it. */
export interface ScriptedTurn {
  id: string | null;
  usage: TokenUsage | null;
  /** Streamed in order, one fragment per entry (consecutive text chunks merge in `generate`). */
  parts: StreamedPart[];
  /**
   * Raised after `parts` have streamed. With no parts, `generate()` itself rejects, the way a
   * request that fails before any byte arrives does.
   */
  failure: ScriptedFailure | null;
}

export function failureToError(failure: ScriptedFailure): ChatProviderError {
  switch (failure.kind) {
    case 'status':
      return new APIStatusError(failure.message, failure.statusCode, failure.requestId, failure.retryAfterMs);
    case 'connection':
      return new APIConnectionError(failure.message);
    case 'timeout':
      return new APITimeoutError(failure.message);
  }
}

/** A script could not be understood. Extends ChatProviderError because the echo provider raises it from `generate()`. */
export class ScriptError extends ChatProviderError {
  override name = 'ScriptError';
  constructor(
    /** 1-based line of the offending directive; null when the script as a whole is wrong. */
    readonly line: number | null,
    readonly detail: string,
    /** 1-based position of the script in a list of scripts, when it came from one. */
    readonly scriptNumber: number | null = null,
  ) {
    const which = scriptNumber === null ? 'Invalid script' : `Invalid script ${scriptNumber}`;
    super(line === null ? `${which}: ${detail}` : `${which} at line ${line}: ${detail}`);
  }
}

/** Builds a turn from parts directly (tests); unlike a script, no parts at all is allowed: an empty answer. */
export function turnFromParts(
  parts: readonly StreamedPart[],
  extra: Partial<Omit<ScriptedTurn, 'parts'>> = {},
): ScriptedTurn {
  return { id: null, usage: null, failure: null, ...extra, parts: [...parts] };
}
