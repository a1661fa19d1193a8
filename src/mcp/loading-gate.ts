import { wireSend } from '../wire/current-wire.js';
import { wireEvent } from '../wire/events.js';
import type { WireMessage } from '../wire/message.js';
import type { McpManager } from './mcp-manager.js';

/**
 * What the soul awaits before the first step of a turn (its `beforeFirstStep` option): when MCP
 * servers are still connecting, tell the front ends (`StatusUpdate` + `MCPLoadingBegin`), wait for
 * them, then report the result (`StatusUpdate` + `MCPLoadingEnd`). Nothing is sent when loading is
 * already over. `send`: the turn's wire (default: the current wire of runSoul).
 */
export function mcpLoadingGate(
  manager: McpManager,
): (signal: AbortSignal, send?: (message: WireMessage) => void) => Promise<void> {
  return async (signal, send = wireSend) => {
    if (!manager.isLoading) return;
    send(wireEvent('StatusUpdate', { mcp_status: manager.statusSnapshot() }));
    send(wireEvent('MCPLoadingBegin', {}));
    try {
      await manager.waitForLoading(signal);
    } finally {
      // Sent on cancellation too, so every MCPLoadingBegin has its End.
      send(wireEvent('StatusUpdate', { mcp_status: manager.statusSnapshot() }));
      send(wireEvent('MCPLoadingEnd', {}));
    }
  };
}
