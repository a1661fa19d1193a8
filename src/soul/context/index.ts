export * from './context.js';
export * from './context-records.js';
export * from './load-context-file.js';
export * from './token-estimate.js';
