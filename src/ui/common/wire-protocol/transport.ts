import type { InboundMessage, OutboundFrame } from './jsonrpc.js';

export type { OutboundFrame } from './jsonrpc.js';

/**
 * How the wire protocol core (`serveWire`) meets its client: stdio lines (`StdioTransport`) or
 * WebSocket frames (the web server's session host). The core never sees bytes.
 */
export interface WireTransport {
  /**
   * Hands every inbound message to `onMessage`, in order, until the client is gone (input ended,
   * the connection closed, the output failed); then resolves with the exit code (0, or 1 when the
   * input failed). Called once.
   */
  receive(onMessage: (message: InboundMessage) => void): Promise<number>;
  /** Queues messages for the client, in order. Never blocks the caller. */
  send(frames: readonly OutboundFrame[]): void;
  /** Whether the output failed (what is sent from then on is dropped). */
  readonly failed: boolean;
  /** Resolves when what was sent so far has been handed on (or the output failed). */
  flush(): Promise<void>;
  /** Lets go of the client's streams or sockets; called once, after the last flush. */
  close(): void;
}
