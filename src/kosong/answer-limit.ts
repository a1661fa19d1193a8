import { ChatProviderError } from './errors.js';
import type { StreamedPart } from './message.js';

/**
 * The most characters one model answer may stream: text, thinking, tool-call names and arguments,
 * media URLs, all counted together. A model server that never stops (hostile or broken) would
 * otherwise grow the agent's memory until the process dies; no real answer comes near this.
 */
export const MAX_ANSWER_CHARS = 256 * 1024 * 1024;

/** Parallel calls of a real answer are a few dozen; each of a thousand more would run. */
export const MAX_ANSWER_TOOL_CALLS = 1024;

/**
 * TEST ONLY: lowers MAX_ANSWER_CHARS so a test need not stream 256 Mi characters. Not a setting:
 * undocumented for users, and only ever lowers the cap (a larger or invalid value is ignored).
 */
export const TEST_MAX_ANSWER_CHARS_ENV = 'KIMI_TS_TEST_MAX_ANSWER_CHARS';

/** The cap in force: MAX_ANSWER_CHARS, or the lower one a test asked for. */
export function answerCharLimit(env: Readonly<Record<string, string | undefined>> = process.env): number {
  const lowered = Number(env[TEST_MAX_ANSWER_CHARS_ENV]);
  return Number.isSafeInteger(lowered) && lowered > 0 && lowered < MAX_ANSWER_CHARS
    ? lowered
    : MAX_ANSWER_CHARS;
}

/** The answer passed the cap: the step ends here (never retried: the same model would do it again). */
export class AnswerTooLongError extends ChatProviderError {
  override name = 'AnswerTooLongError';
  constructor(readonly limit: number) {
    super(`the model's answer passed ${limit} characters; stopped`);
  }
}

/** The answer brought more tool calls than any real one: none past the cap is dispatched. */
export class TooManyToolCallsError extends ChatProviderError {
  override name = 'TooManyToolCallsError';
  constructor(readonly limit: number) {
    super(`the model's answer passed ${limit} tool calls; stopped`);
  }
}

/**
 * How many characters a streamed fragment adds to the answer (exhaustive: a new part kind is a
 * compile error). At least one: a stream of empty fragments (empty tool calls) is bounded too.
 */
export function streamedChars(part: StreamedPart): number {
  return Math.max(1, contentChars(part));
}

/**
 * How much a fragment brings, without the floor of one: an empty one brings nothing, so it is no
 * sign of life either (the stall watchdog).
 */
export function contentChars(part: StreamedPart): number {
  switch (part.type) {
    case 'text':
      return part.text.length;
    case 'think':
      return part.think.length + (part.encrypted?.length ?? 0);
    case 'image_url':
      return part.image_url.url.length;
    case 'audio_url':
      return part.audio_url.url.length;
    case 'video_url':
      return part.video_url.url.length;
    case 'function':
      return part.id.length + part.function.name.length + (part.function.arguments?.length ?? 0);
    case 'tool_call_part':
      return part.arguments_part?.length ?? 0;
  }
}

/**
 * Counts an answer's characters and tool calls as it streams; throws AnswerTooLongError or
 * TooManyToolCallsError once past a cap.
 */
export class AnswerBudget {
  private used = 0;
  private calls = 0;
  constructor(readonly limit: number = answerCharLimit()) {}

  spend(part: StreamedPart): void {
    if (part.type === 'function' && ++this.calls > MAX_ANSWER_TOOL_CALLS)
      throw new TooManyToolCallsError(MAX_ANSWER_TOOL_CALLS);
    this.spendChars(streamedChars(part));
  }

  /** For what a provider holds back before `generate` sees it (a part waiting behind a call). */
  spendChars(count: number): void {
    this.used += Math.max(1, count);
    if (this.used > this.limit) throw new AnswerTooLongError(this.limit);
  }
}
