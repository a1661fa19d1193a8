export { AnthropicProvider } from './anthropic-provider.js';
export { DEFAULT_MAX_TOKENS, THINKING_BUDGETS } from './request-body.js';
