import { wireEvent } from '../wire/events.js';
import type { SoulParts } from './soul-parts.js';

/**
 * The context numbers of a `StatusUpdate`, as Kimi CLI sends them: the tokens the context holds and
 * the window. After a step they are the input tokens the provider reported (none reported: the
 * fields stay empty, nothing is guessed); after `/clear` and `/compact`, the context's own count.
 */
export function contextNumbers(
  parts: Pick<SoulParts, 'llm'>,
  tokens: number | null,
): { context_tokens: number | null; max_context_tokens: number | null; context_usage: number | null } {
  if (tokens === null) return { context_tokens: null, max_context_tokens: null, context_usage: null };
  const max = parts.llm?.maxContextSize ?? 0;
  return {
    context_tokens: tokens,
    max_context_tokens: max,
    context_usage: max > 0 ? tokens / max : null,
  };
}

/** The `StatusUpdate` a slash command that changed the context sends (`/clear`, `/compact`). */
export function contextStatusEvent(parts: Pick<SoulParts, 'llm' | 'context'>) {
  return wireEvent('StatusUpdate', contextNumbers(parts, parts.context.tokenCount));
}
