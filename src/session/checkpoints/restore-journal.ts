import { randomBytes } from 'node:crypto';
import { lstat, mkdir, readdir, readFile, realpath, rename, rm, unlink, writeFile } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';
import { z } from 'zod';
import { builtOnFirstUse } from '../../util/built-on-first-use.js';
import { isSessionOpen } from '../session-lock.js';
import { workDirKey } from '../work-dir-key.js';
import { sessionFolderName } from './session-index.js';

/**
 * A restore writes each file through a temporary sibling (`.kimi-ts-restore-<12 hex>`) and a rename.
 * A crash between the two leaves the temporary file in the user's folder. So before the first write,
 * the restore names every temporary file it may create in a journal in the store
 * (`<store>/restores/<session>.json`), and removes the journal when it is done. The next rewind, or
 * the next session of the work dir, removes what a journal names and is still there: exactly those
 * names, never a user's file, never through a symlink.
 */
const TEMP_NAME = /^\.kimi-ts-restore-[0-9a-f]{12}$/;

/** Built on first use: a journal is read only when a restore was cut short, seldom, never before a first request. */
const journalSchema = builtOnFirstUse(() =>
  z.object({
    session_id: z.string(),
    roots: z.array(z.string()),
    temps: z.array(z.object({ root: z.number().int().nonnegative(), path: z.string() })),
  }),
);

/** A temporary file a restore may leave: its root and its path there, `/`-separated. */
export interface RestoreTemp {
  root: number;
  path: string;
}

/** A fresh name for a temporary file. */
export function restoreTempName(): string {
  return `.kimi-ts-restore-${randomBytes(6).toString('hex')}`;
}

function journalFolder(gitDir: string): string {
  return join(gitDir, 'restores');
}

export function restoreJournalFile(gitDir: string, sessionId: string): string {
  return join(journalFolder(gitDir), `${sessionFolderName(sessionId)}.json`);
}

/**
 * Writes the journal before the first temporary file exists: whole or not at all (a temporary file
 * and a rename), not flushed to disk. It guards against the process dying, which leaves the page
 * cache intact; after a power loss the temporary files it names are as likely gone as it is, and an
 * fsync here costs more than the whole restore of a few files on a busy disk.
 */
export async function writeRestoreJournal(
  gitDir: string,
  sessionId: string,
  roots: readonly string[],
  temps: readonly RestoreTemp[],
): Promise<string> {
  const file = restoreJournalFile(gitDir, sessionId);
  await mkdir(journalFolder(gitDir), { recursive: true, mode: 0o700 });
  const temp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    await writeFile(temp, JSON.stringify({ session_id: sessionId, roots, temps }), { mode: 0o600 });
    await rename(temp, file);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
  return file;
}

function isInside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${sep}`) && !rel.startsWith(sep));
}

/** Removes one leftover if it is still ours: the exact name, a file or a link, in a folder inside the root. */
async function removeLeftover(root: string, temp: RestoreTemp): Promise<boolean> {
  const parts = temp.path.split('/');
  const name = parts.at(-1) ?? '';
  if (!TEMP_NAME.test(name) || parts.some((p) => p === '..' || p === '.' || p === '')) return false;
  const path = join(root, ...parts);
  // The folder as it really is now: a symlink planted since that leads out of the root is not followed.
  const folder = await realpath(dirname(path)).catch(() => null);
  const realRoot = await realpath(root).catch(() => null);
  if (folder === null || realRoot === null || !isInside(realRoot, folder)) return false;
  const info = await lstat(join(folder, name)).catch(() => null);
  // Ours are files or symlinks; anything else by that name is left alone.
  if (!info || !(info.isFile() || info.isSymbolicLink())) return false;
  await unlink(join(folder, name)).catch(() => undefined);
  return true;
}

/**
 * Removes what earlier restores of this store left behind: the journals of `ownSessionId` and of
 * sessions no live process holds (another session's restore may be running right now). Returns how
 * many temporary files were removed. Never throws: a leftover that stays is no reason to stop.
 */
export async function cleanRestoreLeftovers(
  gitDir: string,
  home: string,
  ownSessionId: string,
): Promise<number> {
  let removed = 0;
  for (const entry of await readdir(journalFolder(gitDir)).catch(() => [])) {
    if (!entry.endsWith('.json')) continue;
    const file = join(journalFolder(gitDir), entry);
    try {
      const journal = journalSchema().parse(JSON.parse(await readFile(file, 'utf8')));
      const workDir = journal.roots[0];
      if (workDir === undefined) continue;
      if (journal.session_id !== ownSessionId) {
        const sessionDir = join(home, 'sessions', workDirKey(workDir), journal.session_id);
        if (sessionFolderName(journal.session_id) !== journal.session_id) continue;
        if (await isSessionOpen(sessionDir)) continue;
      }
      for (const temp of journal.temps) {
        const root = journal.roots[temp.root];
        if (root !== undefined && (await removeLeftover(root, temp))) removed++;
      }
      await rm(file, { force: true });
    } catch {
      // A journal that does not parse names nothing we can trust: it goes.
      await rm(file, { force: true }).catch(() => undefined);
    }
  }
  return removed;
}
