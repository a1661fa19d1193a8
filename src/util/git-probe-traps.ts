import {
  closeSync,
  constants,
  type Dirent,
  fstatSync,
  lstatSync,
  openSync,
  readdirSync,
  readSync,
  statSync,
} from 'node:fs';
import { dirname, join, resolve } from 'node:path';

/**
 * Folders whose `.git` git must never look into: traps for git's nested-repository probe.
 *
 * For every untracked folder it walks, `git ls-files --others` and `git add` ask whether the folder is
 * a repository of its own, and to answer they open files inside its `.git` (or wherever a gitfile or
 * a symlinked `.git` leads): `HEAD` is opened and read, `commondir` is read whole. A command in the
 * sandbox may write the work tree, so it can make `HEAD` a FIFO (git waits forever: the record, and so
 * the turn, hangs) or `commondir` a link to /dev/zero or a huge sparse file (git reads until memory
 * runs out). git has no setting that skips the probe; it skips it only for a folder the index holds
 * entries under. So each folder found here gets the placeholder entry of nested-work-trees.ts before
 * git walks the root: git then walks it as a plain folder, records its files, and never opens its
 * `.git`.
 *
 * Checked like git's own probe (setup.c, is_git_directory), and stricter: `HEAD` that is not absent,
 * a symlink (git reads the link only) or a small regular file, or a `commondir` that is not absent or
 * a small regular file, is a trap. A gitfile is read here with a bound and without waiting.
 *
 * Each reading after the first reads again only the folders that changed (mtime, ctime and inode),
 * as NestedGitWalk does; every `.git` found is checked again each time (what it leads to may change
 * while its folder does not).
 */
export class GitProbeTrapWalk {
  private seen = new Map<string, SeenFolder>();

  constructor(private readonly root: string) {}

  /** The folders (relative to the root, `/`-separated) whose `.git` is a trap now. */
  async read(signal?: AbortSignal): Promise<string[]> {
    const top = resolve(this.root);
    const next = new Map<string, SeenFolder>();
    const traps: string[] = [];
    const queue: string[] = [''];
    for (let i = 0; i < queue.length; i++) {
      const relative = queue[i] as string;
      const folder = relative === '' ? top : join(top, relative);
      const stat = lstatSync(folder, { throwIfNoEntry: false });
      if (!stat?.isDirectory()) continue;
      const key = `${stat.mtimeMs} ${stat.ctimeMs} ${stat.ino}`;
      let seen = this.seen.get(relative);
      // A name added within the clock tick of the last reading may not have moved the times.
      if (seen === undefined || seen.key !== key || !seen.settled)
        seen = readFolder(folder, relative, key, stat);
      next.set(relative, seen);
      if (seen.hasGit && relative !== '' && isProbeTrap(join(folder, '.git'))) traps.push(relative);
      queue.push(...seen.subfolders);
      if ((i + 1) % BATCH === 0) {
        await new Promise<void>((done) => setImmediate(done));
        signal?.throwIfAborted();
      }
    }
    this.seen = next;
    return traps;
  }
}

interface SeenFolder {
  readonly key: string;
  readonly settled: boolean;
  readonly subfolders: readonly string[];
  readonly hasGit: boolean;
}

/** Folders read between two turns of the event loop. */
const BATCH = 256;
/** A folder whose times are this close to its reading is read again next time. */
const SETTLE_MS = 1_000;
/** git refuses a gitfile larger than this (read_gitfile_gently). */
const MAX_GITFILE_BYTES = 1024 * 1024;
/** The most bytes a harmless `HEAD` or `commondir` holds (a ref name, a path). */
const MAX_SMALL_FILE_BYTES = 64 * 1024;

function readFolder(
  folder: string,
  relative: string,
  key: string,
  stat: { mtimeMs: number; ctimeMs: number },
): SeenFolder {
  const settled = stat.mtimeMs + SETTLE_MS < Date.now() && stat.ctimeMs + SETTLE_MS < Date.now();
  let entries: Dirent[];
  try {
    entries = readdirSync(folder, { withFileTypes: true });
  } catch {
    return { key, settled: false, subfolders: [], hasGit: false };
  }
  const subfolders: string[] = [];
  let hasGit = false;
  for (const entry of entries) {
    if (entry.name === '.git') {
      // git never walks into a `.git`, whatever it is.
      hasGit = true;
      continue;
    }
    // Symlinked folders are not walked by git either.
    if (entry.isDirectory()) subfolders.push(relative === '' ? entry.name : `${relative}/${entry.name}`);
  }
  return { key, settled, subfolders, hasGit };
}

/** Whether git's probe of the `.git` at `dotGit` could wait or read without bound. */
export function isProbeTrap(dotGit: string): boolean {
  const stat = statQuietly(dotGit);
  if (stat === undefined) return false;
  if (stat.isDirectory()) return isGitDirTrap(dotGit);
  // Anything else but a regular file is not a repository to git (it checks with stat first).
  if (!stat.isFile() || stat.size > MAX_GITFILE_BYTES) return false;
  const text = readSmall(dotGit, MAX_GITFILE_BYTES);
  // Not readable here (swapped for something else since the stat): git must not look either.
  if (text === null) return true;
  if (!text.startsWith('gitdir: ')) return false;
  const target = text.slice('gitdir: '.length).replace(/[\r\n]+$/, '');
  if (target === '') return false;
  return isGitDirTrap(resolve(dirname(dotGit), target));
}

function isGitDirTrap(gitDir: string): boolean {
  const head = lstatQuietly(join(gitDir, 'HEAD'));
  if (head !== undefined && !head.isSymbolicLink() && !(head.isFile() && head.size <= MAX_SMALL_FILE_BYTES))
    return true;
  const commondir = join(gitDir, 'commondir');
  if (lstatQuietly(commondir) === undefined) return false;
  const target = statQuietly(commondir);
  return target === undefined || !target.isFile() || target.size > MAX_SMALL_FILE_BYTES;
}

/** Up to `max` bytes of a regular file, opened without waiting (a FIFO swapped in) and checked again by descriptor. */
function readSmall(path: string, max: number): string | null {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch {
    return null;
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile() || stat.size > max) return null;
    const buffer = Buffer.alloc(stat.size);
    const read = readSync(fd, buffer, 0, buffer.length, 0);
    return buffer.subarray(0, read).toString('utf8');
  } catch {
    return null;
  } finally {
    closeSync(fd);
  }
}

function statQuietly(path: string) {
  try {
    return statSync(path, { throwIfNoEntry: false });
  } catch {
    return undefined;
  }
}

function lstatQuietly(path: string) {
  try {
    return lstatSync(path, { throwIfNoEntry: false });
  } catch {
    return undefined;
  }
}

/** More trap folders than a command line should carry: nothing is staged then. */
const MAX_EXCLUDED_TRAPS = 1_000;

/**
 * Pathspecs that keep git's walk out of the trap folders under `workTree` (an excluded folder is
 * never probed), for a `git add -A` in a tree an agent wrote, where no placeholder can go into the
 * index (it is the person's). The folders' files are not staged.
 */
export async function trapExcludes(workTree: string, signal?: AbortSignal): Promise<string[]> {
  const traps = await new GitProbeTrapWalk(workTree).read(signal);
  if (traps.length > MAX_EXCLUDED_TRAPS)
    throw new Error(
      `${traps.length} folders hold a .git that git cannot safely look into; nothing was staged.`,
    );
  return traps.map((folder) => `:(top,exclude,literal)${folder}`);
}
