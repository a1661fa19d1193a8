import { readdir, stat } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { importedSessionsDir } from '../../../session/archive/import-session-zip.js';
import { sessionTitle } from '../../../session/inspect.js';
import { isValidSessionId, type Session } from '../../../session/session.js';
import { UNTITLED } from '../../../session/title.js';
import { type LoadedSession, type ReadOptions, readSessionFolder } from '../model/read-session.js';

/** Sessions kept loaded (a 10,000-step one holds ~20 MB of lines). */
const CACHED_SESSIONS = 4;

export interface ViewableSession {
  id: string;
  dir: string;
  /** Last change of wire.jsonl (ms since the epoch), 0 when it has none. */
  updatedAt: number;
  /** Where it came from: the kimi-ts home, a folder named on the command line, or an imported ZIP. */
  source: 'home' | 'folder' | 'imported';
}

/**
 * A session's title as the other lists show it (its custom title, else its first prompt, shortened),
 * redacted like everything vis serves; "Untitled" when its files say nothing.
 */
async function titleOf(entry: ViewableSession, redact: (text: string) => string): Promise<string> {
  const session: Session = {
    id: entry.id,
    workDir: '',
    dir: entry.dir,
    contextFile: join(entry.dir, 'context.jsonl'),
    wireFile: join(entry.dir, 'wire.jsonl'),
    stateFile: join(entry.dir, 'state.json'),
  };
  return redact(await sessionTitle(session).catch(() => UNTITLED));
}

/**
 * The sessions vis can show: every session under `<home>/sessions/<work dir key>/`, the session
 * folders named on the command line (a copied session folder) and the session archives imported
 * into `<home>/imported_sessions/<id>/` (`kimi-ts vis FILE.zip`, the page's upload). Loaded sessions are
 * cached and read again when their wire.jsonl changed (a session still running grows).
 */
export class ViewableSessions {
  private readonly folders = new Map<string, string>();
  private readonly cache = new Map<string, { stamp: string; loaded: LoadedSession }>();
  private readonly reading = new Map<string, Promise<LoadedSession>>();

  constructor(
    private readonly home: string,
    private readonly readOptions: ReadOptions,
  ) {}

  /** Adds a session folder from outside the home; returns its id (the folder's name). */
  addFolder(dir: string): string {
    const name = basename(dir);
    const id = isValidSessionId(name) ? name : 'imported-session';
    this.folders.set(id, dir);
    return id;
  }

  /** The session's title for the picker (redacted like everything served). */
  title(entry: ViewableSession): Promise<string> {
    return titleOf(entry, this.readOptions.redact ?? ((text) => text));
  }

  async list(): Promise<ViewableSession[]> {
    const entries: ViewableSession[] = [];
    for (const [id, dir] of this.folders)
      entries.push({ id, dir, updatedAt: await wireTime(dir), source: 'folder' });
    const imported = importedSessionsDir(this.home);
    for (const id of await names(imported)) {
      // Folders still being unpacked start with '.', which no session id does.
      if (!isValidSessionId(id) || this.folders.has(id)) continue;
      const dir = join(imported, id);
      const updatedAt = await wireTime(dir);
      if (updatedAt > 0) entries.push({ id, dir, updatedAt, source: 'imported' });
    }
    const taken = new Set(entries.map((entry) => entry.id));
    const root = join(this.home, 'sessions');
    for (const key of await names(root)) {
      for (const id of await names(join(root, key))) {
        if (!isValidSessionId(id) || taken.has(id)) continue;
        const dir = join(root, key, id);
        const updatedAt = await wireTime(dir);
        if (updatedAt > 0) entries.push({ id, dir, updatedAt, source: 'home' });
      }
    }
    return entries.sort((a, b) => b.updatedAt - a.updatedAt);
  }

  /** The session's folder, or undefined for an id that is not a session here (never a path). */
  async find(id: string): Promise<ViewableSession | undefined> {
    if (!isValidSessionId(id)) return undefined;
    const folder = this.folders.get(id);
    if (folder) return { id, dir: folder, updatedAt: await wireTime(folder), source: 'folder' };
    const importedDir = join(importedSessionsDir(this.home), id);
    const importedAt = await wireTime(importedDir);
    if (importedAt > 0) return { id, dir: importedDir, updatedAt: importedAt, source: 'imported' };
    const root = join(this.home, 'sessions');
    for (const key of await names(root)) {
      const dir = join(root, key, id);
      const updatedAt = await wireTime(dir);
      if (updatedAt > 0) return { id, dir, updatedAt, source: 'home' };
    }
    return undefined;
  }

  async load(id: string): Promise<LoadedSession | undefined> {
    const entry = await this.find(id);
    if (!entry) return undefined;
    const stamp = await wireStamp(entry.dir);
    const cached = this.cache.get(id);
    if (cached && cached.stamp === stamp) return cached.loaded;
    // Two requests for one session (the preload and the page's) share one read.
    const key = `${id}@${stamp}`;
    let reading = this.reading.get(key);
    if (!reading) {
      reading = readSessionFolder(entry.dir, id, this.readOptions);
      this.reading.set(key, reading);
      void reading.finally(() => this.reading.delete(key)).catch(() => undefined);
    }
    const loaded = await reading;
    // The most recently read sessions stay in memory; a Map iterates oldest first.
    this.cache.delete(id);
    this.cache.set(id, { stamp, loaded });
    for (const old of this.cache.keys()) {
      if (this.cache.size <= CACHED_SESSIONS) break;
      this.cache.delete(old);
    }
    return loaded;
  }
}

async function names(dir: string): Promise<string[]> {
  try {
    return await readdir(dir);
  } catch {
    return [];
  }
}

async function wireTime(dir: string): Promise<number> {
  try {
    return (await stat(join(dir, 'wire.jsonl'))).mtimeMs;
  } catch {
    return 0;
  }
}

async function wireStamp(dir: string): Promise<string> {
  try {
    const info = await stat(join(dir, 'wire.jsonl'));
    return `${info.mtimeMs}:${info.size}`;
  } catch {
    return 'none';
  }
}
