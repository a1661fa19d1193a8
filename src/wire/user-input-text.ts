import type { UserInput } from './payloads.js';

/** How a media part (image, audio, video) of the input shows in its text: left out, or `[image]`. */
export type MediaInText = 'omit' | 'placeholder';

/**
 * The text of a user input (a TurnBegin's or a SteerInput's): a string as it is; of content parts,
 * the text parts joined by a space, and the other parts left out or shown as `[image]`, `[audio]`,
 * `[video]`. Browser-safe (type imports only): the TUI, the web page, vis and session titles all
 * read a user input through this one function.
 */
export function userInputText(input: UserInput, media: MediaInText = 'omit'): string {
  if (typeof input === 'string') return input;
  const texts: string[] = [];
  for (const part of input) {
    if (part.type === 'text') texts.push(part.text);
    else if (media === 'placeholder') texts.push(`[${part.type.replace('_url', '')}]`);
  }
  return texts.join(' ');
}
