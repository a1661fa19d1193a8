/** What a record of a root looks at: the files git finds changed, and those past the size cap. */
import { lstatSync, type Stats } from 'node:fs';
import { join } from 'node:path';
import { type GitRunOptions, nulFields, runGit } from './git-runner.js';

/** How many `lstat` calls run between two turns of the event loop when checking the size cap. */
const STAT_BATCH = 256;

/**
 * The candidates (paths under `root`) that are regular files larger than `maxBytes`. Synchronous
 * `lstat` in small batches: for 10,000 files it is a third of the time of the thread pool's, and a
 * batch holds the event loop for about a millisecond.
 */
export async function filesOver(
  root: string,
  paths: readonly string[],
  maxBytes: number,
  signal: AbortSignal | undefined,
): Promise<string[]> {
  const over: string[] = [];
  for (let start = 0; start < paths.length; start += STAT_BATCH) {
    if (start > 0) await new Promise<void>((resolve) => setImmediate(resolve));
    signal?.throwIfAborted();
    for (const path of paths.slice(start, start + STAT_BATCH)) {
      const stats = lstatSafe(join(root, path));
      if (stats?.isFile() && stats.size > maxBytes) over.push(path);
    }
  }
  return over;
}

/** What differs between a root's session index and its files. */
export interface Candidates {
  /** Every path that differs: new (`sub/` for a nested repository git would record as a gitlink), changed or gone. */
  paths: string[];
  /** The paths among them the index holds (changed or gone, not new). */
  tracked: string[];
}

/**
 * What differs between a root's session index and its files, under `specs` (all of it when none).
 * `-t` tags each path (`?` new, `C` changed, `R` gone), at no cost.
 */
export async function listCandidates(
  git: GitRunOptions,
  excludes: readonly string[],
  specs: readonly string[],
  /** Folders git must not walk into (git-walk-traps.ts): left out of every call. */
  leftOut: readonly string[] = [],
): Promise<Candidates> {
  const leaveOut = leftOut.map((folder) => `:(top,exclude,literal)${folder}`);
  const args = [
    ...excludes,
    'ls-files',
    '-z',
    '-t',
    '--others',
    '--modified',
    '--deleted',
    '--exclude-standard',
  ];
  const out: Candidates = { paths: [], tracked: [] };
  const take = (stdout: Buffer) => {
    for (const field of nulFields(stdout)) {
      // "<tag> <path>"
      const path = field.slice(2);
      out.paths.push(path);
      if (field[0] !== '?') out.tracked.push(path);
    }
  };
  if (specs.length === 0)
    take((await runGit(leaveOut.length > 0 ? [...args, '--', ':(top)', ...leaveOut] : args, git)).stdout);
  // `ls-files` takes no --pathspec-from-file: the paths go as arguments, a bounded number at a time.
  for (let start = 0; start < specs.length; start += 500)
    take((await runGit([...args, '--', ...specs.slice(start, start + 500), ...leaveOut], git)).stdout);
  return out;
}

/**
 * Whether `path` under `root` is a folder now (a tracked path that became one: a file or a gitlink
 * replaced by a nested repository, which `ls-files --others` does not list under a name the index holds).
 */
export function isFolder(root: string, path: string): boolean {
  return lstatSafe(join(root, path))?.isDirectory() ?? false;
}

function lstatSafe(path: string): Stats | undefined {
  try {
    return lstatSync(path, { throwIfNoEntry: false });
  } catch {
    return undefined;
  }
}
