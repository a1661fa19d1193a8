/** Why a fleet session's stream cannot be served: an HTTP status, a code, a reason for a person. */
export interface FleetRefusal {
  status: 404 | 503;
  code: 'session_not_found' | 'fleet_unreachable';
  message: string;
}

/** One WebSocket, as a fleet session's relay sees it. */
export interface RelayClient {
  send(text: string): void;
  close(code: number, reason: string): void;
}

/**
 * What `kimi-ts web --queue URL` adds to the server: the fleet's sessions, from its Redis. The
 * routes know it by this interface only; BullMQ and ioredis load (open-fleet-web.ts) in queue mode.
 */
export interface FleetWeb {
  /** The fleet's sessions as the REST API lists them (with `fleet`: state, worker, tokens). */
  listSessions(): Promise<unknown[]>;
  /** Why session `id`'s stream cannot be served (not a UUID, Redis away), or null. */
  refusal(id: string | null): Promise<FleetRefusal | null>;
  /** Serves session `sessionId` (a validated UUID) to one WebSocket. */
  relay(sessionId: string, client: RelayClient): { receive(text: string): void; detach(): void };
  close(): void;
}
