import type { ThinkingEffort } from '../message.js';

/** What every SDK-backed provider is built from (a `[providers.*]` + `[models.*]` pair of the config). */
export interface ProviderOptions {
  /** The model name sent to the API. */
  model: string;
  baseUrl?: string | undefined;
  apiKey?: string | undefined;
  /** Extra HTTP headers sent with every request. */
  customHeaders?: Record<string, string> | undefined;
  thinkingEffort?: ThinkingEffort | null | undefined;
  maxTokens?: number | undefined;
  temperature?: number | undefined;
  topP?: number | undefined;
  /** Kimi only: `thinking.keep`, sent with thinking on. */
  thinkingKeep?: string | number | boolean | undefined;
  /** Per-request timeout in milliseconds (default 120 s). */
  timeoutMs?: number | undefined;
  /** Used where the API supports a cache or user key (Kimi `prompt_cache_key`, Anthropic `metadata.user_id`). */
  sessionId?: string | undefined;
}

export const DEFAULT_TIMEOUT_MS = 120_000;
