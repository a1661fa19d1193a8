import type { Message } from '../../kosong/index.js';

/**
 * The characters the token estimate counts for a message: its text parts, as Kimi CLI counts, plus
 * the arguments of its tool calls, which the model reads back on the next request as well (a large
 * file write would otherwise be invisible to the compaction trigger until the next usage report).
 */
export function estimatedChars(message: Message): number {
  let chars = 0;
  for (const part of message.content) {
    if (part.type === 'text') chars += part.text.length;
  }
  for (const call of message.tool_calls ?? []) chars += call.function.arguments?.length ?? 0;
  return chars;
}

/** Tokens for a number of characters: chars / 4, rounded down. */
export function charsToTokens(chars: number): number {
  return Math.floor(chars / 4);
}

export function estimateTokens(messages: readonly Message[]): number {
  let chars = 0;
  for (const message of messages) chars += estimatedChars(message);
  return charsToTokens(chars);
}
