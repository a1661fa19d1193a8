import { readdir, rm, stat } from 'node:fs/promises';
import { isSessionEmpty, sessionTitle } from './inspect.js';
import { lastSessionId } from './metadata.js';
import {
  createSession,
  isValidSessionId,
  type Session,
  SessionError,
  type SessionLocation,
  sessionAt,
  sessionsDir,
} from './session.js';

export interface SessionSummary {
  session: Session;
  title: string;
  /** Last change of `context.jsonl`, in milliseconds since the epoch. */
  updatedAt: number;
}

/**
 * The work dir's sessions, most recently changed first, with their titles. Empty sessions are left
 * out (they are deleted on exit anyway).
 */
export async function listSessions(where: SessionLocation): Promise<SessionSummary[]> {
  let names: string[];
  try {
    names = await readdir(sessionsDir(where.home, where.workDir));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const summaries = await Promise.all(
    names.filter(isValidSessionId).map(async (id): Promise<SessionSummary | null> => {
      const session = sessionAt(where.home, where.workDir, id);
      let updatedAt: number;
      try {
        updatedAt = (await stat(session.contextFile)).mtimeMs;
      } catch {
        return null;
      }
      if (await isSessionEmpty(session).catch(() => false)) return null;
      // A session whose state cannot be read is still listed (by its id), so it can be seen and deleted.
      const title = await sessionTitle(session).catch(() => id);
      return { session, title, updatedAt };
    }),
  );
  return summaries.filter((s): s is SessionSummary => s !== null).sort((a, b) => b.updatedAt - a.updatedAt);
}

/**
 * `--continue`: the session last recorded for this work dir (see `recordLastSession`), or, if none
 * was recorded or it is gone, the most recently changed non-empty one.
 */
export async function continueSession(where: SessionLocation): Promise<Session> {
  const id = await lastSessionId(where.home, where.workDir);
  if (id !== null && isValidSessionId(id)) {
    const session = sessionAt(where.home, where.workDir, id);
    if (await pathExists(session.contextFile)) return createSession({ ...where, id });
  }
  const latest = (await listSessions(where))[0];
  if (latest) return latest.session;
  throw new SessionError('No previous session found for the working directory');
}

/** Deletes the session's folder when it is empty; returns whether it did. */
export async function deleteSessionIfEmpty(session: Session): Promise<boolean> {
  if (!(await isSessionEmpty(session))) return false;
  await rm(session.dir, { recursive: true, force: true });
  return true;
}

/** Lines for a session list: id, time and title. */
export function formatSessionList(summaries: readonly SessionSummary[]): string {
  if (summaries.length === 0) return 'No sessions in this working directory.';
  return summaries
    .map(({ session, title, updatedAt }) => `${session.id}  ${new Date(updatedAt).toISOString()}  ${title}`)
    .join('\n');
}

async function pathExists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch {
    return false;
  }
}
