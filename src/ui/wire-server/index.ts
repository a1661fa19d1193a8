export { ErrorCodes } from './jsonrpc.js';
export { MAX_LINE_BYTES } from './line-splitter.js';
export { runWireServer, type WireServerOptions } from './server.js';
