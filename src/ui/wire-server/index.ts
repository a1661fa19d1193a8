// Wire mode over stdio: the wire-protocol core (`ui/common/wire-protocol/`) served as JSON lines.
export { MAX_LINE_BYTES } from './line-splitter.js';
export { runWireServer, type WireServerOptions } from './run-wire-server.js';
export { StdioTransport } from './stdio-transport.js';
