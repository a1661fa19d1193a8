export * from './inspect.js';
export * from './list.js';
export * from './metadata.js';
export * from './session.js';
export * from './session-lock.js';
export * from './state.js';
export * from './title.js';
export * from './work-dir-key.js';
