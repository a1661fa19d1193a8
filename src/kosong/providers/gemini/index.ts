export { GEMINI_THINKING_BUDGETS, GeminiProvider, type VertexTarget } from './gemini-provider.js';
