import { randomUUID } from 'node:crypto';
import { mkdir, open } from 'node:fs/promises';
import { join } from 'node:path';
import { normalizeWorkDir, workDirKey } from './work-dir-key.js';

/** A session folder: `<home>/sessions/<md5 of work dir>/<session id>/`. */
export interface Session {
  id: string;
  /** Absolute work dir the session belongs to. */
  workDir: string;
  dir: string;
  contextFile: string;
  wireFile: string;
  stateFile: string;
}

/** A session cannot be opened (bad id, nothing to continue). The message is meant for the user. */
export class SessionError extends Error {
  override name = 'SessionError';
}

export function sessionsDir(home: string, workDir: string): string {
  return join(home, 'sessions', workDirKey(workDir));
}

export function sessionAt(home: string, workDir: string, id: string): Session {
  const dir = join(sessionsDir(home, workDir), id);
  return {
    id,
    workDir: normalizeWorkDir(workDir),
    dir,
    contextFile: join(dir, 'context.jsonl'),
    wireFile: join(dir, 'wire.jsonl'),
    stateFile: join(dir, 'state.json'),
  };
}

export interface SessionLocation {
  /** kimi-ts's data folder (`kimiTsHome(env)`). */
  home: string;
  workDir: string;
}

/** Creates a new session with a fresh UUID (or the given id) and an empty `context.jsonl`. */
export async function createSession(where: SessionLocation & { id?: string }): Promise<Session> {
  const id = where.id ?? randomUUID();
  assertSessionId(id);
  const session = sessionAt(where.home, where.workDir, id);
  await mkdir(session.dir, { recursive: true });
  // 'a' creates the file if needed and never truncates an existing history.
  await (await open(session.contextFile, 'a')).close();
  return session;
}

/** `--session ID`: the session with this id, created when it does not exist yet. */
export async function openSession(where: SessionLocation & { id: string }): Promise<Session> {
  return createSession(where);
}

const SESSION_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

export function isValidSessionId(id: string): boolean {
  return SESSION_ID.test(id) && !id.includes('..');
}

/** Session ids become folder names: refuse anything that could point outside the sessions folder. */
export function assertSessionId(id: string): void {
  if (!isValidSessionId(id)) {
    throw new SessionError(
      `Invalid session id ${JSON.stringify(id)}: use letters, digits, '.', '_' or '-' (at most 128 characters)`,
    );
  }
}
