import { randomUUID } from 'node:crypto';
import { readFile, rename, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { type ImportedSession, importSessionZip } from '../session/archive/import-session-zip.js';
import { listSessions, type SessionSummary } from '../session/list.js';
import type { Session } from '../session/session.js';
import { lockSession } from '../session/session-lock.js';
import { sessionMarkdown, sessionZip } from './session-export.js';
import { forkSession, type UndoPoint, undoPoints } from './session-fork.js';
import { renameSession } from './session-title.js';

/** Where the catalog finds the config whose secrets an export redacts. */
export interface CatalogConfig {
  env: Readonly<Record<string, string | undefined>>;
  configFile?: string | undefined;
  inlineConfig?: string | undefined;
}

/**
 * The operations on saved sessions, in one place for every front end (the web routes, the CLI, the
 * TUI's and the shell's session commands, vis): list, rename, fork, delete, export, import. Nothing else writes a
 * session's files from outside the session.
 */
export class SessionCatalog {
  constructor(
    readonly home: string,
    private readonly config: CatalogConfig,
  ) {}

  /** The work dir's sessions, most recently changed first, with their titles. */
  list(workDir: string): Promise<SessionSummary[]> {
    return listSessions({ home: this.home, workDir });
  }

  /** The user's title for the session (as `/title` sets it). */
  rename(session: Session, title: string): Promise<void> {
    return renameSession(session.stateFile, title);
  }

  /** The turns a fork can be cut before, numbered from 1. */
  undoPoints(session: Session): Promise<UndoPoint[]> {
    return undoPoints(session);
  }

  /** A new session with `session`'s history, all of it or up to just before the turn `before`. */
  fork(session: Session, before?: UndoPoint | undefined): Promise<Session> {
    return forkSession(session, { home: this.home, before });
  }

  /**
   * Removes the session's folder. The session's lock is taken first and held until the folder is
   * gone, so a session another process has open is refused (SessionLockedError) and nothing is
   * removed, and no process can open it half-way through: the folder is first renamed aside (one
   * atomic step, under the lock), then removed.
   */
  async delete(session: Session): Promise<void> {
    const lock = await lockSession(session.id, session.dir);
    const aside = join(dirname(session.dir), `.deleting-${session.id}-${randomUUID()}`);
    try {
      await rename(session.dir, aside);
    } finally {
      await lock.release();
    }
    await rm(aside, { recursive: true, force: true });
  }

  /** The session as Markdown, secrets redacted. */
  async exportMarkdown(session: Session): Promise<string> {
    const bytes = await readFile(session.contextFile);
    return sessionMarkdown(session, bytes, { home: this.home, ...this.config });
  }

  /** The session folder as a ZIP at `output` (what `kimi-ts vis` imports), secrets redacted. */
  exportZip(session: Session, to: { output: string; overwrite: boolean }): Promise<void> {
    return sessionZip(session, { home: this.home, ...this.config, ...to });
  }

  /** A session archive (`kimi-ts export --zip`) imported under `<home>/imported_sessions/`. */
  importArchive(zipPath: string, signal?: AbortSignal): Promise<ImportedSession> {
    return importSessionZip({ zipPath, home: this.home, signal });
  }
}
