import type { ServerConnection } from './connection.js';

/**
 * The life of one configured MCP server: `pending → connecting → connected | failed | unauthorized`,
 * and `connected → failed` when the server dies later. One type per state and one function per
 * transition, so an illegal move (say, pending straight to connected) does not type-check.
 */

export interface PendingServer {
  readonly status: 'pending';
}

export interface ConnectingServer {
  readonly status: 'connecting';
}

export interface ConnectedServer {
  readonly status: 'connected';
  readonly connection: ServerConnection;
  /** The tools registered in the toolset for this server. */
  readonly tools: readonly string[];
  /** Remote tools that were not registered, with why (name taken, name not usable). */
  readonly skipped: readonly SkippedTool[];
}

export interface FailedServer {
  readonly status: 'failed';
  readonly reason: string;
  /** Tools registered before the failure; they stay in the toolset and answer with an error. */
  readonly tools: readonly string[];
  readonly skipped: readonly SkippedTool[];
}

export interface UnauthorizedServer {
  readonly status: 'unauthorized';
  readonly reason: string;
}

export interface SkippedTool {
  name: string;
  reason: string;
}

export type ServerState =
  | PendingServer
  | ConnectingServer
  | ConnectedServer
  | FailedServer
  | UnauthorizedServer;

/** A state the server stays in until something external happens: loading is over for it. */
export function isSettled(state: ServerState): boolean {
  return state.status !== 'pending' && state.status !== 'connecting';
}

export function initialState(): PendingServer {
  return { status: 'pending' };
}

export function beginConnecting(_from: PendingServer): ConnectingServer {
  return { status: 'connecting' };
}

export function markConnected(
  _from: ConnectingServer,
  connection: ServerConnection,
  tools: readonly string[],
  skipped: readonly SkippedTool[],
): ConnectedServer {
  return { status: 'connected', connection, tools, skipped };
}

export function markFailed(from: ConnectingServer | ConnectedServer, reason: string): FailedServer {
  return from.status === 'connected'
    ? { status: 'failed', reason, tools: from.tools, skipped: from.skipped }
    : { status: 'failed', reason, tools: [], skipped: [] };
}

/** Needs authorization the user has not given (or that no longer works). */
export function markUnauthorized(
  _from: PendingServer | ConnectingServer,
  reason: string,
): UnauthorizedServer {
  return { status: 'unauthorized', reason };
}

export function toolsOf(state: ServerState): readonly string[] {
  return state.status === 'connected' || state.status === 'failed' ? state.tools : [];
}
