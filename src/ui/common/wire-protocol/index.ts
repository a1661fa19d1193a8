// The JSON-RPC wire-protocol core (protocol 1.10) that both transports serve: stdio lines
// (`ui/wire-server/`) and WebSocket frames (`ui/web/server/`).
export {
  ErrorCodes,
  errorFrame,
  eventFrame,
  frameText,
  type InboundMessage,
  parseInboundLine,
  requestFrame,
} from './jsonrpc.js';
export { type ServeWireOptions, serveWire } from './serve-wire.js';
export type { OutboundFrame, WireTransport } from './transport.js';
