export * from './config.js';
export * from './decision.js';
export * from './engine.js';
export * from './events.js';
export * from './matcher.js';
export * from './run-hook-command.js';
export * from './types.js';
export * from './wire-subscriptions.js';
