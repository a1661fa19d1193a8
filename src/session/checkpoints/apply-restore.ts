import {
  chmod,
  lstat,
  mkdir,
  readdir,
  realpath,
  rename,
  rm,
  rmdir,
  symlink,
  unlink,
  writeFile,
} from 'node:fs/promises';
import { basename, dirname, join, relative, sep } from 'node:path';
import { readBlobs } from './read-blobs.js';
import { REPOSITORY_LEFT, repositoriesLeft } from './repositories-left.js';
import { restoreTempName, writeRestoreJournal } from './restore-journal.js';
import type { FileChange } from './restore-plan.js';

export interface RestoreReport {
  /** Files written back or removed. */
  applied: FileChange[];
  /** Files left alone: changed by someone else (not confirmed), or a path that now leads outside its root. */
  left: { change: FileChange; reason: string }[];
  /**
   * Files no checkpoint recorded that stand where the rewind would have put something (a folder of
   * the person's where a file was): a rewind removes only what a checkpoint recorded, so they stay.
   */
  kept: { root: number; path: string; reason: string }[];
}

/** The bits a restored file gets: the ones the checkpoint noted, else git's 644 or 755. */
function permissionsOf(change: FileChange): number {
  const noted = change.permissions === undefined ? Number.NaN : Number.parseInt(change.permissions, 8);
  if (!Number.isNaN(noted)) return noted & 0o7777;
  return change.mode === '100755' ? 0o755 : 0o644;
}

/** How many files of a folder the report names one by one. */
const LISTED_KEPT = 50;

/** The files under `dir` (relative to `root`, `/`-separated), at most `limit` of them. */
async function filesUnder(root: string, dir: string, limit: number): Promise<string[]> {
  const found: string[] = [];
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  for (const entry of entries) {
    if (entry.isDirectory()) continue;
    found.push(relative(root, join(entry.parentPath, entry.name)).split(sep).join('/'));
    if (found.length >= limit) break;
  }
  return found.sort();
}

/** Whether `path` is `root` or inside it. */
function isInside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !rel.startsWith(sep));
}

/**
 * The parent folder, created if missing; null when an existing part of it leads outside the root.
 * The part that exists is checked before anything is made: a symlink to a folder outside, put where
 * a recorded folder was, had its missing sub-folders made outside before the check refused the file.
 */
async function safeParent(root: string, file: string): Promise<string | null> {
  const parent = dirname(file);
  const realRoot = await realpath(root);
  let existing = parent;
  while (!(await lstat(existing).catch(() => null))) existing = dirname(existing);
  const realExisting = await realpath(existing).catch(() => null);
  if (realExisting === null || !isInside(realRoot, realExisting)) return null;
  await mkdir(parent, { recursive: true });
  const real = await realpath(parent);
  return isInside(realRoot, real) ? real : null;
}

/**
 * Writes one file through a temporary sibling and a rename, so a crash at any instant leaves either
 * the old bytes or the new ones, never a torn file.
 */
async function writeAtomically(
  path: string,
  tempName: string,
  change: FileChange,
  bytes: Buffer,
): Promise<void> {
  const temp = join(dirname(path), tempName);
  try {
    if (change.mode === '120000') await symlink(bytes.toString('utf8'), temp);
    else {
      // Written private first, given its bits once whole: a 0600 file is never readable by others.
      await writeFile(temp, bytes, { mode: 0o600 });
      await chmod(temp, permissionsOf(change));
    }
    // An empty folder where the file should be (a type change whose recorded files went) goes first;
    // a folder still holding files is never removed (the caller checked).
    const existing = await lstat(path).catch(() => null);
    if (existing?.isDirectory()) await rmdir(path);
    await rename(temp, path);
  } catch (error) {
    await rm(temp, { force: true }).catch(() => undefined);
    throw error;
  }
}

/** The files of a folder standing at `path` (none when it is no folder, or an empty one). */
async function folderInTheWay(root: string, path: string): Promise<string[]> {
  const existing = await lstat(path).catch(() => null);
  if (!existing?.isDirectory()) return [];
  // Empty sub-folders left by the removals go; what remains is someone's.
  await pruneEmptyTree(path);
  const files = await filesUnder(root, path, LISTED_KEPT + 1);
  if (files.length <= LISTED_KEPT) return files;
  return [...files.slice(0, LISTED_KEPT), `${relative(root, path).split(sep).join('/')}/… (more files)`];
}

/** Removes the empty folders below `dir` and `dir` itself when it ends up empty. */
async function pruneEmptyTree(dir: string): Promise<void> {
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  for (const entry of entries) if (entry.isDirectory()) await pruneEmptyTree(join(dir, entry.name));
  await rmdir(dir).catch(() => undefined);
}

/** Removes empty folders from `dir` up to (not including) `root`. */
async function pruneEmptyFolders(root: string, dir: string): Promise<void> {
  let current = dir;
  while (current !== root && isInside(root, current)) {
    try {
      await rmdir(current);
    } catch {
      return;
    }
    current = dirname(current);
  }
}

/**
 * Applies a restore plan to the roots. `includeChangedElsewhere` also restores files someone else
 * changed since (the person confirmed it). Safe to run again after a crash: a new plan from the same
 * target finds only what is still different.
 */
export async function applyRestore(
  gitDir: string,
  roots: readonly string[],
  changes: readonly FileChange[],
  options: {
    includeChangedElsewhere?: boolean | undefined;
    signal?: AbortSignal | undefined;
    /** The session restoring: its journal names the temporary files (restore-journal.ts). */
    sessionId?: string | undefined;
  } = {},
): Promise<RestoreReport> {
  const report: RestoreReport = { applied: [], left: [], kept: [] };
  const chosen: FileChange[] = [];
  // Removals first: a recorded folder's files go before a file is written in the folder's place.
  const ordered = [
    ...changes.filter((change) => change.kind === 'remove'),
    ...changes.filter((change) => change.kind !== 'remove'),
  ];
  for (const change of ordered) {
    if (change.changedElsewhere && !options.includeChangedElsewhere) {
      report.left.push({ change, reason: 'changed since by someone else' });
    } else chosen.push(change);
  }
  const blobs = await readBlobs(
    gitDir,
    chosen.flatMap((c) => (c.blob ? [c.blob] : [])),
    options.signal,
  );
  // Every temporary name is chosen, and journaled, before the first file is touched.
  const temps = new Map<FileChange, string>();
  for (const change of chosen) if (change.kind !== 'remove') temps.set(change, restoreTempName());
  const journal =
    options.sessionId !== undefined && temps.size > 0
      ? await writeRestoreJournal(
          gitDir,
          options.sessionId,
          roots,
          [...temps].map(([change, name]) => ({
            root: change.root,
            path: [...change.path.split('/').slice(0, -1), name].join('/'),
          })),
        )
      : null;
  try {
    await applyChosen(roots, chosen, blobs, temps, report, options.signal);
    await reportRepositoriesLeft(roots, report);
  } finally {
    // Each write cleaned up its own temporary file, whatever happened: nothing is left to find.
    if (journal) await rm(journal, { force: true });
  }
  return report;
}

/** Names the `.git` of each nested repository whose recorded files the rewind removed (repositories-left.ts). */
async function reportRepositoriesLeft(roots: readonly string[], report: RestoreReport): Promise<void> {
  for (const [index, root] of roots.entries()) {
    const emptied = new Set(
      report.applied
        .filter((change) => change.kind === 'remove' && change.root === index)
        .map((change) => dirname(join(root, ...change.path.split('/')))),
    );
    for (const path of await repositoriesLeft(root, emptied))
      report.kept.push({ root: index, path, reason: REPOSITORY_LEFT });
  }
}

async function applyChosen(
  roots: readonly string[],
  chosen: readonly FileChange[],
  blobs: ReadonlyMap<string, Buffer>,
  temps: ReadonlyMap<FileChange, string>,
  report: RestoreReport,
  signal: AbortSignal | undefined,
): Promise<void> {
  for (const change of chosen) {
    signal?.throwIfAborted();
    const root = roots[change.root];
    if (root === undefined) {
      report.left.push({ change, reason: 'its folder is no longer part of the session' });
      continue;
    }
    const target = join(root, ...change.path.split('/'));
    if (!isInside(root, target)) {
      report.left.push({ change, reason: 'the path leads outside its folder' });
      continue;
    }
    if (change.kind === 'remove') {
      const parent = await realpath(dirname(target)).catch(() => null);
      if (parent === null || !isInside(await realpath(root), parent)) {
        report.left.push({ change, reason: 'the path leads outside its folder' });
        continue;
      }
      // Through the folder that was checked (a symlink swapped onto the name since is not followed).
      await unlink(join(parent, basename(target))).catch((error: NodeJS.ErrnoException) => {
        if (error.code !== 'ENOENT') throw error;
      });
      await pruneEmptyFolders(root, dirname(target));
      report.applied.push(change);
      continue;
    }
    const parent = await safeParent(root, target);
    if (parent === null) {
      report.left.push({ change, reason: 'the path leads outside its folder (a symlink)' });
      continue;
    }
    const bytes = blobs.get(change.blob ?? '');
    if (!bytes) {
      report.left.push({ change, reason: 'its recorded bytes are missing' });
      continue;
    }
    const inTheWay = await folderInTheWay(root, target);
    if (inTheWay.length > 0) {
      // The folder holds files no checkpoint recorded (or ones left for someone else): they stay, and
      // the file the checkpoint holds is not put back over them. Its bytes stay in the checkpoint.
      report.left.push({
        change,
        reason:
          'a folder holding files no checkpoint recorded stands in its place (move it away and rewind again)',
      });
      for (const path of inTheWay)
        report.kept.push({ root: change.root, path, reason: 'not recorded by any checkpoint' });
      continue;
    }
    // Through the folder that was checked, not the name again: a symlink swapped onto a part of the
    // name since is not followed.
    await writeAtomically(
      join(parent, basename(target)),
      temps.get(change) ?? restoreTempName(),
      change,
      bytes,
    );
    report.applied.push(change);
  }
}
