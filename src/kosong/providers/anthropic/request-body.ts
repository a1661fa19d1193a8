import type {
  Tool as AnthropicTool,
  CacheControlEphemeral,
  MessageCreateParamsStreaming,
  MessageParam,
  ThinkingConfigParam,
} from '@anthropic-ai/sdk/resources/messages';
import type { Message, ThinkingEffort } from '../../message.js';
import type { Tool } from '../../tool.js';
import { toAnthropicMessages } from './message-conversion.js';

/** Kimi CLI's default output cap for Anthropic models. */
export const DEFAULT_MAX_TOKENS = 50_000;

/** Reasoning budget per effort level, in tokens (the API's minimum is 1,024). */
export const THINKING_BUDGETS: Readonly<Record<Exclude<ThinkingEffort, 'off'>, number>> = {
  low: 2_048,
  medium: 8_192,
  high: 16_384,
  xhigh: 32_768,
  max: 40_960,
};

const MIN_THINKING_BUDGET = 1_024;
/** Room kept for the visible answer when a budget has to be squeezed under `max_tokens`. */
const MIN_ANSWER_TOKENS = 1_024;
const EPHEMERAL: CacheControlEphemeral = { type: 'ephemeral' };

export interface RequestSettings {
  model: string;
  maxTokens?: number | undefined;
  thinkingEffort?: ThinkingEffort | null | undefined;
  temperature?: number | undefined;
  topP?: number | undefined;
  sessionId?: string | undefined;
}

/** Sampling fields that the SDK's types no longer list but compatible endpoints still accept. */
export type AnthropicRequestBody = MessageCreateParamsStreaming & { temperature?: number; top_p?: number };

export function buildRequestBody(
  settings: RequestSettings,
  systemPrompt: string,
  tools: readonly Tool[],
  history: readonly Message[],
): AnthropicRequestBody {
  const maxTokens = settings.maxTokens ?? DEFAULT_MAX_TOKENS;
  const messages = toAnthropicMessages(history);
  const anthropicTools = tools.map(toAnthropicTool);
  markCacheBreakpoints(messages, anthropicTools);

  const body: AnthropicRequestBody = { model: settings.model, max_tokens: maxTokens, messages, stream: true };
  if (systemPrompt !== '') body.system = [{ type: 'text', text: systemPrompt, cache_control: EPHEMERAL }];
  if (anthropicTools.length > 0) body.tools = anthropicTools;
  const thinking = thinkingConfig(settings.thinkingEffort ?? null, maxTokens);
  if (thinking) body.thinking = thinking;
  if (settings.sessionId) body.metadata = { user_id: settings.sessionId };
  if (settings.temperature !== undefined) body.temperature = settings.temperature;
  if (settings.topP !== undefined) body.top_p = settings.topP;
  return body;
}

/**
 * `null` leaves thinking to the model's default; `off` disables it. A budget must be at least
 * 1,024 and below `max_tokens`, so it is squeezed under a small cap, and dropped if it cannot fit.
 */
export function thinkingConfig(effort: ThinkingEffort | null, maxTokens: number): ThinkingConfigParam | null {
  if (effort === null) return null;
  if (effort === 'off') return { type: 'disabled' };
  const budget = Math.min(THINKING_BUDGETS[effort], maxTokens - MIN_ANSWER_TOKENS);
  return budget >= MIN_THINKING_BUDGET ? { type: 'enabled', budget_tokens: budget } : null;
}

function toAnthropicTool(tool: Tool): AnthropicTool {
  return {
    name: tool.name,
    description: tool.description,
    input_schema: { ...tool.parameters, type: 'object' },
  };
}

/**
 * Prompt caching: each agent step resends the same growing prefix, so breakpoints on the system
 * prompt, the last tool and the end of the history let the next step read all of it from cache.
 * Thinking blocks cannot carry a breakpoint, so a history ending in one goes without.
 */
function markCacheBreakpoints(messages: MessageParam[], tools: AnthropicTool[]): void {
  const lastTool = tools.at(-1);
  if (lastTool) lastTool.cache_control = EPHEMERAL;
  const content = messages.at(-1)?.content;
  const lastBlock = Array.isArray(content) ? content.at(-1) : undefined;
  if (lastBlock && lastBlock.type !== 'thinking' && lastBlock.type !== 'redacted_thinking') {
    lastBlock.cache_control = EPHEMERAL;
  }
}
