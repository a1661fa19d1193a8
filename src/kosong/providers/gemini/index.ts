export { GEMINI_THINKING_BUDGETS, GeminiProvider } from './gemini-provider.js';
