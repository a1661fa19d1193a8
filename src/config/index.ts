export * from './config-error.js';
export * from './home.js';
export * from './llm-not-set.js';
export * from './load-config.js';
export * from './resolve-model.js';
export * from './schema.js';
