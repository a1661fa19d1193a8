import type { StreamedPart } from './message.js';

/**
 * Tries to merge `next` into `pending`, mutating `pending`. Returns whether it merged.
 *
 * The rules are the part's own: text absorbs text; think absorbs think unless already signed (a
 * signature seals it) and takes over the signature of the incoming fragment; a tool call absorbs the
 * argument fragments streamed after it; argument fragments absorb each other. Anything else does
 * not merge, which is what tells a stream consumer that `pending` is complete.
 */
export function mergeInPlace(pending: StreamedPart, next: StreamedPart): boolean {
  switch (pending.type) {
    case 'text':
      if (next.type !== 'text') return false;
      pending.text += next.text;
      return true;
    case 'think':
      if (next.type !== 'think' || pending.encrypted) return false;
      pending.think += next.think;
      if (next.encrypted) pending.encrypted = next.encrypted;
      return true;
    case 'function':
      if (next.type !== 'tool_call_part') return false;
      if (next.arguments_part) {
        pending.function.arguments = (pending.function.arguments ?? '') + next.arguments_part;
      }
      return true;
    case 'tool_call_part':
      if (next.type !== 'tool_call_part') return false;
      if (next.arguments_part) pending.arguments_part = (pending.arguments_part ?? '') + next.arguments_part;
      return true;
    default:
      return false;
  }
}

/** A copy of a part that shares nothing mutable with the original. */
export function copyPart<T extends StreamedPart>(part: T): T {
  switch (part.type) {
    case 'text':
    case 'think':
    case 'tool_call_part':
      return { ...part };
    case 'image_url':
      return { ...part, image_url: { ...part.image_url } };
    case 'audio_url':
      return { ...part, audio_url: { ...part.audio_url } };
    case 'video_url':
      return { ...part, video_url: { ...part.video_url } };
    case 'function':
      return {
        ...part,
        function: { ...part.function },
        ...(part.extras ? { extras: structuredClone(part.extras) } : {}),
      };
  }
}
