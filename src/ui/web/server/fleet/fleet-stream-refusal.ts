import { type FleetSource, isSessionId } from './fleet-source.js';
import type { FleetRefusal } from './fleet-web.js';

/**
 * Why a fleet session's stream cannot be served, or null: an id that is not a UUID names no Redis
 * key (404); Redis away is a 503 the page retries, saying so (host:port only, never the URL).
 */
export async function fleetStreamRefusal(
  source: FleetSource,
  id: string | null,
): Promise<FleetRefusal | null> {
  if (!isSessionId(id))
    return { status: 404, code: 'session_not_found', message: 'A fleet session id is a full UUID.' };
  const problem = source.problem();
  if (problem !== null) return { status: 503, code: 'fleet_unreachable', message: problem };
  try {
    await source.redis.ping();
  } catch {
    return {
      status: 503,
      code: 'fleet_unreachable',
      message: `Cannot reach the fleet's Redis at ${source.address.display}.`,
    };
  }
  return null;
}
