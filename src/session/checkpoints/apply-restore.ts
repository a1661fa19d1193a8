import {
  chmod,
  lstat,
  mkdir,
  realpath,
  rename,
  rm,
  rmdir,
  symlink,
  unlink,
  writeFile,
} from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';
import { readBlobs } from './read-blobs.js';
import { restoreTempName, writeRestoreJournal } from './restore-journal.js';
import type { FileChange } from './restore-plan.js';

export interface RestoreReport {
  /** Files written back or removed. */
  applied: FileChange[];
  /** Files left alone: changed by someone else (not confirmed), or a path that now leads outside its root. */
  left: { change: FileChange; reason: string }[];
}

/** Whether `path` is `root` or inside it. */
function isInside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !rel.startsWith(sep));
}

/** The parent folder, created if missing; null when an existing part of it leads outside the root. */
async function safeParent(root: string, file: string): Promise<string | null> {
  const parent = dirname(file);
  await mkdir(parent, { recursive: true });
  const real = await realpath(parent);
  const realRoot = await realpath(root);
  return isInside(realRoot, real) ? real : null;
}

/**
 * Writes one file through a temporary sibling and a rename, so a crash at any instant leaves either
 * the old bytes or the new ones, never a torn file.
 */
async function writeAtomically(path: string, tempName: string, mode: string, bytes: Buffer): Promise<void> {
  const temp = join(dirname(path), tempName);
  try {
    if (mode === '120000') await symlink(bytes.toString('utf8'), temp);
    else {
      await writeFile(temp, bytes, { mode: mode === '100755' ? 0o755 : 0o644 });
      await chmod(temp, mode === '100755' ? 0o755 : 0o644);
    }
    // A folder where the file should be (a type change) goes first.
    const existing = await lstat(path).catch(() => null);
    if (existing?.isDirectory()) await rm(path, { recursive: true, force: true });
    await rename(temp, path);
  } catch (error) {
    await rm(temp, { force: true }).catch(() => undefined);
    throw error;
  }
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
  const report: RestoreReport = { applied: [], left: [] };
  const chosen: FileChange[] = [];
  for (const change of changes) {
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
  } finally {
    // Each write cleaned up its own temporary file, whatever happened: nothing is left to find.
    if (journal) await rm(journal, { force: true });
  }
  return report;
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
      await unlink(target).catch((error: NodeJS.ErrnoException) => {
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
    await writeAtomically(target, temps.get(change) ?? restoreTempName(), change.mode ?? '100644', bytes);
    report.applied.push(change);
  }
}
