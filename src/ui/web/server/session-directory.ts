import { stat } from 'node:fs/promises';
import { readMetadata } from '../../../session/metadata.js';
import { isValidSessionId, type Session, sessionAt } from '../../../session/session.js';

/**
 * Where sessions live, for the web server: the work dirs kimi-ts has recorded (`kimi-ts.json`, which
 * every opened session updates) and, by id, which of them holds a session. Ids are checked before they
 * touch the file system, so an id can never name a path outside the sessions folder.
 */
export class SessionDirectory {
  constructor(readonly home: string) {}

  /** Recorded work dirs, in the order of the metadata file, duplicates dropped. */
  async workDirs(): Promise<string[]> {
    const metadata = await readMetadata(this.home);
    return [...new Set(metadata.work_dirs.filter((e) => e.kaos === 'local').map((e) => e.path))];
  }

  /** The session with this id in any recorded work dir, or null (also for an invalid id). */
  async find(id: string): Promise<Session | null> {
    if (!isValidSessionId(id)) return null;
    for (const workDir of await this.workDirs()) {
      const session = sessionAt(this.home, workDir, id);
      if (await isFile(session.contextFile)) return session;
    }
    return null;
  }
}

async function isFile(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isFile();
  } catch {
    return false;
  }
}
