export {
  ErrorCodes,
  eventFrame,
  frameText,
  type InboundMessage,
  parseInboundLine,
  requestFrame,
} from './jsonrpc.js';
export { MAX_LINE_BYTES } from './line-splitter.js';
export { runWireServer, type ServeWireOptions, serveWire, type WireServerOptions } from './server.js';
export { StdioTransport } from './stdio-transport.js';
export type { OutboundFrame, WireTransport } from './transport.js';
