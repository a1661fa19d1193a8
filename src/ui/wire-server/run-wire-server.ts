import type { AgentSession } from '../../app/agent-session.js';
import type { TerminalSafe } from '../../util/sanitize-terminal.js';
import { serveWire } from '../common/wire-protocol/serve-wire.js';
import { StdioTransport, type StdioTransportOptions } from './stdio-transport.js';

export interface WireServerOptions extends StdioTransportOptions {
  session: AgentSession;
  /** Where the server explains what it did with input it could not use (default: process.stderr). */
  stderr?: ((text: TerminalSafe) => void) | undefined;
}

/**
 * Serves one session in wire mode (JSON-RPC 2.0 over a pair of byte streams, normally stdio) until
 * the input ends or `signal` aborts. Then the running turn is cancelled, requests still waiting for
 * the client are closed, every answer in flight is written, and the promise resolves with the exit
 * code: 0, or 1 when the input failed. The caller owns the session and the streams (closes neither).
 */
export function runWireServer(options: WireServerOptions): Promise<number> {
  return serveWire({
    session: options.session,
    transport: new StdioTransport(options),
    stderr: options.stderr,
  });
}
