import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, unlinkSync } from 'node:fs';
import { copyFile, readdir, rename, rm, stat, utimes } from 'node:fs/promises';
import { join } from 'node:path';
import { workDirKey } from '../work-dir-key.js';

/** The folder of the per-session index files of a store: `<store>/indexes/<session>/<root key>`. */
export const INDEXES_DIR = 'indexes';

/** A session id as a folder name: ids are ours (uuid-like), but a strange one is hashed, never a path. */
export function sessionFolderName(sessionId: string): string {
  return /^[A-Za-z0-9_-]{1,100}$/.test(sessionId)
    ? sessionId
    : `h-${createHash('sha256').update(sessionId, 'utf8').digest('hex').slice(0, 32)}`;
}

/**
 * The index (git's stat cache and staging area) one session uses for one root. Each session has its
 * own, over the store's shared object database: two sessions of one work dir never wait on or
 * overwrite each other's `index.lock`, and one owner per session (the session lock) means one writer
 * per index.
 */
export function sessionIndexFile(gitDir: string, sessionId: string, root: string): string {
  return join(gitDir, INDEXES_DIR, sessionFolderName(sessionId), workDirKey(root));
}

/**
 * Makes the session's index for `root` ready before its first record (`empty`: it lists nothing yet,
 * so the first record's changed files are all of them):
 * - an `index.lock` beside it is stale (the process that owns the session now is this one; a git it
 *   ran before was killed with SIGKILL), so it is removed;
 * - a session that has no index yet starts from the newest index another session keeps for the same
 *   folder (a copy), so its first checkpoint re-reads only the files that changed since, instead of
 *   hashing the whole tree again. The copy keeps the source's mtime (rounded down): git treats entries
 *   as "racily clean" relative to the index file's time, and an older time only makes it look closer.
 */
export async function prepareSessionIndex(
  gitDir: string,
  sessionId: string,
  root: string,
): Promise<{ file: string; empty: boolean }> {
  const file = sessionIndexFile(gitDir, sessionId, root);
  const folder = join(gitDir, INDEXES_DIR, sessionFolderName(sessionId));
  // Synchronous: the start of every session's first record; a thread-pool round trip each cost more.
  mkdirSync(folder, { recursive: true, mode: 0o700 });
  try {
    unlinkSync(`${file}.lock`);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  if (existsSync(file)) return { file, empty: false };
  const seed = await newestIndexOf(gitDir, workDirKey(root), folder);
  if (seed) {
    const temp = `${file}.seed-${randomBytes(4).toString('hex')}`;
    try {
      await copyFile(seed.path, temp);
      const seconds = Math.floor(seed.mtimeMs / 1000) - 1;
      await utimes(temp, seconds, seconds);
      await rename(temp, file);
      return { file, empty: false };
    } catch {
      // No seed is no harm: the first record hashes every file.
      await rm(temp, { force: true });
    }
  }
  return { file, empty: true };
}

async function newestIndexOf(
  gitDir: string,
  rootKey: string,
  exceptFolder: string,
): Promise<{ path: string; mtimeMs: number } | null> {
  const base = join(gitDir, INDEXES_DIR);
  let best: { path: string; mtimeMs: number } | null = null;
  for (const session of await readdir(base).catch(() => [])) {
    const folder = join(base, session);
    if (folder === exceptFolder) continue;
    const path = join(folder, rootKey);
    const info = await stat(path).catch(() => null);
    if (info?.isFile() && (!best || info.mtimeMs > best.mtimeMs)) best = { path, mtimeMs: info.mtimeMs };
  }
  return best;
}
