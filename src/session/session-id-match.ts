import { readdir, stat } from 'node:fs/promises';
import { assertNever } from '../util/assert-never.js';
import { isValidSessionId, SessionError, type SessionLocation, sessionAt, sessionsDir } from './session.js';

/**
 * What a session id typed by a person names among a work dir's sessions. The front ends show
 * 8-character ids, so any unique prefix of an existing session's id names it; an exact id wins over
 * a longer id it is a prefix of.
 */
export type SessionIdMatch =
  | { kind: 'found'; id: string }
  | { kind: 'ambiguous'; given: string; ids: readonly string[] }
  | { kind: 'none'; given: string };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A session made with a chosen id (`-S ID` for an id that does not exist) needs a full UUID. */
export function isFullSessionUuid(id: string): boolean {
  return UUID.test(id);
}

/** Matches `given` against the sessions of `where` that have a history file (made, not half-made). */
export async function matchSessionId(where: SessionLocation, given: string): Promise<SessionIdMatch> {
  if (!isValidSessionId(given)) return { kind: 'none', given };
  return matchAmong(await existingSessionIds(where), given);
}

/** The rule itself, over ids found elsewhere (vis looks across every work dir and imported sessions). */
export function matchAmong(ids: readonly string[], given: string): SessionIdMatch {
  if (ids.includes(given)) return { kind: 'found', id: given };
  const matches = [...new Set(ids.filter((id) => id.startsWith(given)))].sort();
  if (matches.length === 1 && matches[0] !== undefined) return { kind: 'found', id: matches[0] };
  if (matches.length > 1) return { kind: 'ambiguous', given, ids: matches };
  return { kind: 'none', given };
}

/** The sentence a person reads when `match` names no single session; null when it names one. */
export function sessionIdProblem(match: SessionIdMatch, workDir?: string): string | null {
  switch (match.kind) {
    case 'found':
      return null;
    case 'ambiguous':
      return `Session id ${JSON.stringify(match.given)} is ambiguous: it starts ${match.ids.length} sessions (${match.ids
        .slice(0, 5)
        .join(', ')}${match.ids.length > 5 ? ', …' : ''}). Type more of it.`;
    case 'none':
      return `There is no session ${JSON.stringify(match.given)}${workDir ? ` for ${workDir}` : ''} (list them with \`kimi-ts sessions\`).`;
    default:
      return assertNever(match);
  }
}

/** A session id that names no single session: a usage error (exit 2 on the command line). */
export class SessionIdError extends SessionError {
  override name = 'SessionIdError';
}

/** The full id of the session `given` names in `where`; a SessionIdError saying why when none or several. */
export async function resolveSessionId(where: SessionLocation, given: string): Promise<string> {
  const match = await matchSessionId(where, given);
  if (match.kind === 'found') return match.id;
  throw new SessionIdError(sessionIdProblem(match, where.workDir) ?? `There is no session ${given}.`);
}

async function existingSessionIds(where: SessionLocation): Promise<string[]> {
  let names: string[];
  try {
    names = await readdir(sessionsDir(where.home, where.workDir));
  } catch {
    return [];
  }
  const present = await Promise.all(
    names.filter(isValidSessionId).map(async (id) => {
      const info = await stat(sessionAt(where.home, where.workDir, id).contextFile).catch(() => null);
      return info?.isFile() ? id : null;
    }),
  );
  return present.filter((id): id is string => id !== null);
}
