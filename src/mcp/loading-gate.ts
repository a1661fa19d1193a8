import { wireSend } from '../wire/current-wire.js';
import { wireEvent } from '../wire/events.js';
import type { McpManager } from './mcp-manager.js';

/**
 * What the soul awaits before the first step of a turn (its `beforeFirstStep` option): when MCP
 * servers are still connecting, tell the front ends (`StatusUpdate` + `MCPLoadingBegin`), wait for
 * them, then report the result (`StatusUpdate` + `MCPLoadingEnd`). Nothing is sent when loading is
 * already over. Must run inside the turn's wire (runSoul).
 */
export function mcpLoadingGate(manager: McpManager): (signal: AbortSignal) => Promise<void> {
  return async (signal) => {
    if (!manager.isLoading) return;
    wireSend(wireEvent('StatusUpdate', { mcp_status: manager.statusSnapshot() }));
    wireSend(wireEvent('MCPLoadingBegin', {}));
    try {
      await manager.waitForLoading(signal);
    } finally {
      // Sent on cancellation too, so every MCPLoadingBegin has its End.
      wireSend(wireEvent('StatusUpdate', { mcp_status: manager.statusSnapshot() }));
      wireSend(wireEvent('MCPLoadingEnd', {}));
    }
  };
}
