export { OpenAIResponsesProvider } from './provider.js';
export { buildResponsesRequest } from './request.js';
