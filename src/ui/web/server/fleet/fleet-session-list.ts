import { listFleetSessions } from '../../../../fleet/fleet-sessions.js';
import type { FleetSource } from './fleet-source.js';

/** How much of a session's first prompt titles it in the list. */
const TITLE_CHARS = 80;

/**
 * The fleet's sessions as the REST API lists them (the page's session list): the same fields as a
 * local session's, plus `fleet` (state, worker, tokens, cost: dollars, or null for n/a). A title is the first prompt's first line.
 */
export async function fleetSessionsJSON(source: FleetSource): Promise<unknown[]> {
  const sessions = await listFleetSessions(source.redis);
  return sessions.map((session) => ({
    id: session.sessionId,
    title: (session.prompt.split('\n')[0] ?? '').slice(0, TITLE_CHARS),
    work_dir: session.workDir,
    updated_at: new Date(session.updatedAt).toISOString(),
    turns: session.turn,
    open: false,
    busy: session.state === 'running',
    fleet: { state: session.state, worker: session.worker, tokens: session.tokens, cost: session.cost },
  }));
}
