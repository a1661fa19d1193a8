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

/**
 * The text a slash command is read from: the input itself, or the text of input made of text parts
 * only (how ACP editors and some wire clients send a typed line); '' when it carries media.
 */
export function slashCommandText(input: string | readonly ContentPart[]): string {
  if (typeof input === 'string') return input;
  if (!input.every((part) => part.type === 'text')) return '';
  return input.map((part) => (part.type === 'text' ? part.text : '')).join('');
}
