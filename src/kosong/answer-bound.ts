import { ChatProviderError } from './errors.js';
import type { StreamedPart } from './message.js';

/**
 * The most one answer may bring: characters of every kind (text, thinking, tool names and arguments,
 * media addresses) and parts. A model's longest answers are a few hundred thousand characters; a
 * server that streams without end (a hostile one, or one stuck in a loop without an output limit)
 * was held in memory whole, and each of its tool calls would have run.
 */
export const MAX_ANSWER_CHARS = 64 * 1024 * 1024;
export const MAX_ANSWER_PARTS = 1_000_000;
/** Parallel calls of a real answer are a few dozen. */
export const MAX_ANSWER_TOOL_CALLS = 1024;

/** Counts an answer's parts as they come; throws once it is past the bound. */
export class AnswerBound {
  private chars = 0;
  private parts = 0;
  private calls = 0;

  add(part: StreamedPart): void {
    this.chars += charsOf(part);
    this.parts++;
    if (part.type === 'function') this.calls++;
    if (this.chars > MAX_ANSWER_CHARS || this.parts > MAX_ANSWER_PARTS)
      throw new ChatProviderError(
        `The API sent an answer of more than ${MAX_ANSWER_CHARS} characters or ${MAX_ANSWER_PARTS} parts; the answer was given up.`,
      );
    if (this.calls > MAX_ANSWER_TOOL_CALLS)
      throw new ChatProviderError(
        `The API sent more than ${MAX_ANSWER_TOOL_CALLS} tool calls in one answer; the answer was given up.`,
      );
  }
}

function charsOf(part: StreamedPart): number {
  switch (part.type) {
    case 'text':
      return part.text.length;
    case 'think':
      return part.think.length + (part.encrypted?.length ?? 0);
    case 'function':
      return part.id.length + part.function.name.length + (part.function.arguments?.length ?? 0);
    case 'tool_call_part':
      return part.arguments_part?.length ?? 0;
    case 'image_url':
      return part.image_url.url.length;
    case 'audio_url':
      return part.audio_url.url.length;
    case 'video_url':
      return part.video_url.url.length;
    default:
      return assertNever(part);
  }
}

function assertNever(value: never): never {
  throw new Error(`unexpected part ${JSON.stringify(value)}`);
}
