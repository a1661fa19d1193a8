import { fleetSessionsJSON } from './fleet-session-list.js';
import { FleetSessionRelay } from './fleet-session-relay.js';
import { openFleetSource } from './fleet-source.js';
import { fleetStreamRefusal } from './fleet-stream-refusal.js';
import type { FleetWeb } from './fleet-web.js';

/** Connects to the fleet's Redis for a web node, or says why not (host:port only, never the URL). */
export async function openFleetWeb(
  queueUrl: string,
  defaultWorkDir: string,
  log: (line: string) => void,
): Promise<FleetWeb | { error: string }> {
  const source = await openFleetSource(queueUrl, log);
  if ('error' in source) return source;
  return {
    listSessions: () => fleetSessionsJSON(source),
    refusal: (id) => fleetStreamRefusal(source, id),
    relay: (sessionId, client) => new FleetSessionRelay(source, sessionId, defaultWorkDir, client),
    close: () => source.close(),
  };
}
