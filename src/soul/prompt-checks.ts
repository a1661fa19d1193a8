import type { ContentPart } from '../kosong/message.js';

/** A prompt with nothing in it: refused before it becomes a turn (nothing reaches the model). */
export class EmptyPromptError extends Error {
  override name = 'EmptyPromptError';
  constructor() {
    super('The prompt is empty: nothing was sent to the model.');
  }
}

/** Whether user input carries nothing: blank text and no media. */
export function isEmptyPrompt(input: string | readonly ContentPart[]): boolean {
  if (typeof input === 'string') return input.trim() === '';
  return input.every((part) => part.type === 'text' && part.text.trim() === '');
}

/** What an unknown `/name` answers instead of going to the model as a prompt. */
export function unknownCommandText(name: string): string {
  return `unknown command /${name} — /help lists them`;
}
