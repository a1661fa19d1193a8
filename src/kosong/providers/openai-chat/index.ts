export { ChatCompletionsProvider, type GenerationOptions } from './chat-completions-provider.js';
export { KimiProvider } from './kimi-provider.js';
export { type OpenAIChatOptions, OpenAIChatProvider } from './openai-legacy-provider.js';
