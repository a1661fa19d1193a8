import type { TokenUsage } from '../../message.js';
import type { ChatUsage } from './chat-chunk.js';

/** Splits the prompt into cache hits and the rest, wherever the server reports the hits. */
export function convertUsage(usage: ChatUsage): TokenUsage {
  const prompt = usage.prompt_tokens ?? 0;
  const cached = usage.cached_tokens ?? usage.prompt_tokens_details?.cached_tokens ?? 0;
  return {
    input_other: Math.max(0, prompt - cached),
    input_cache_read: cached,
    input_cache_creation: 0,
    output: usage.completion_tokens ?? 0,
  };
}
