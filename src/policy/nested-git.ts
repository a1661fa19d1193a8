import { closeSync, constants, openSync, readSync, realpathSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { assertNever } from '../util/assert-never.js';
import { INSTALLED_CODE_FOLDERS } from '../util/installed-code-folders.js';
import { isWithinDirectory } from '../util/path-within.js';
import { SharedWorkTreeWalk } from '../util/shared-work-tree-walk.js';
import { type FolderFacts, WorkTreeWalk } from '../util/work-tree-walk.js';

/**
 * Folders where no person keeps a repository of their own: installed packages, virtual environments,
 * build output and caches. A `.git` in one is not bound read-only (a package manager replaces such
 * folders whole, and a mount point in one would make that fail), but it is searched like every other
 * folder: a git folder a command makes there is cleaned (src/policy/new-git-dirs.ts), as git run
 * inside it would use what the command put there.
 */
const UNBOUND_FOLDERS: ReadonlySet<string> = new Set([...INSTALLED_CODE_FOLDERS, '.next', 'target']);

/**
 * The git metadata of the repositories nested in a writable workspace, as it is now: each nested
 * `.git` (a folder, or a gitfile such as a submodule's or a linked worktree's `gitdir: …`), and the
 * real folder a gitfile or a symlinked `.git` points to when that folder is inside one of the
 * writable roots. What is written there runs later, outside any sandbox, when the person uses git
 * in that repository (hooks, `core.fsmonitor`), so the sandbox binds each of them read-only, as it
 * does the top-level `.git`.
 *
 * `root/.git` itself is not listed (the caller protects it). Every folder is searched
 * (src/util/work-tree-walk.ts: no cap a command could fill to hide one); those under UNBOUND_FOLDERS
 * are listed apart (`unboundGitDirs`). Each reading after the first reads again only the folders that
 * changed (one lstat for each other folder); a `.git` that is a symlink or a gitfile is resolved
 * again each time (where it leads can change while its folder does not).
 */
export class NestedGitWalk {
  private readonly walk: SharedWorkTreeWalk;
  private bareFolders: string[] = [];
  private unbound: string[] = [];

  constructor(
    root: string,
    private readonly writableRoots: readonly string[],
    /** The clock folders are judged settled on (tests move it). */
    now: () => number = Date.now,
    /**
     * The walk of `root` to share with the other checks that read it after each command (the
     * secret files): one reading serves all. A walk of its own when not given.
     */
    shared?: SharedWorkTreeWalk,
  ) {
    this.walk = shared ?? new SharedWorkTreeWalk(new WorkTreeWalk(root, now));
  }

  async read(): Promise<string[]> {
    const found = new Set<string>();
    const unbound = new Set<string>();
    const bare: string[] = [];
    const unread = await this.walk.read(({ path, relative, facts }) => {
      if (facts.bare) bare.push(path);
      if (facts.dotGit === null || relative === '') return;
      const into = relative.split('/').some((name) => UNBOUND_FOLDERS.has(name)) ? unbound : found;
      addGitEntry(join(path, '.git'), facts.dotGit, this.writableRoots, into);
    });
    // Every folder must be seen (no folder a command could hide one in): a folder that could not be
    // looked at fails the reading, as its lstat's error.
    if (unread[0] !== undefined) throw unread[0].error;
    this.bareFolders = bare;
    this.unbound = [...unbound];
    return [...found];
  }

  /**
   * The folders of the last reading shaped like a bare repository (the top too): not bound read-only
   * (a project's test fixtures are often bare repositories), but git run inside one uses its config
   * and hooks, so a command's changes there are cleaned (src/policy/new-git-dirs.ts).
   */
  bareRepositories(): readonly string[] {
    return this.bareFolders;
  }

  /** The git metadata of the last reading found under UNBOUND_FOLDERS: cleaned, not bound. */
  unboundGitDirs(): readonly string[] {
    return this.unbound;
  }
}

/** One reading of the whole tree (a NestedGitWalk of its own). */
export function nestedGitPaths(root: string, writableRoots: readonly string[]): Promise<string[]> {
  return new NestedGitWalk(root, writableRoots).read();
}

function addGitEntry(
  path: string,
  kind: NonNullable<FolderFacts['dotGit']>,
  writableRoots: readonly string[],
  found: Set<string>,
): void {
  const inWritable = (target: string) => writableRoots.some((root) => isWithinDirectory(target, root));
  switch (kind) {
    case 'folder':
      found.add(path);
      return;
    case 'symlink': {
      // The link itself cannot be bound (a bind follows it); what it points to can.
      const target = realTarget(path);
      if (target && inWritable(target)) found.add(target);
      return;
    }
    case 'file': {
      found.add(path);
      const gitdir = gitfileTarget(path);
      if (gitdir && inWritable(gitdir)) found.add(gitdir);
      return;
    }
    case 'other':
      return;
    default:
      assertNever(kind);
  }
}

/** The real folder `path` leads to, or null (dangling, not a folder). */
export function realTarget(path: string): string | null {
  try {
    const real = realpathSync(path);
    return statSync(real).isDirectory() ? real : null;
  } catch {
    return null;
  }
}

/** The folder a gitfile (`gitdir: ../.git/modules/x`) names, resolved and real; null if none. */
export function gitfileTarget(path: string): string | null {
  try {
    const text = readHead(path, GITFILE_HEAD_BYTES);
    const match = /^gitdir:\s*(.+?)\s*$/m.exec(text);
    if (!match?.[1]) return null;
    return realTarget(resolve(dirname(path), match[1]));
  } catch {
    return null;
  }
}

/** How much of a gitfile is read: its `gitdir:` line (git itself takes at most 1 MiB). */
const GITFILE_HEAD_BYTES = 4096;

/**
 * The first `max` bytes of a file, without waiting (O_NONBLOCK: a FIFO swapped in since the
 * readdir). A command may make a gitfile of any size (a sparse one costs nothing on disk), and
 * this runs on the event loop at every command: a whole read was seconds and its size in memory.
 */
function readHead(path: string, max: number): string {
  const fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    const buffer = Buffer.alloc(max);
    const read = readSync(fd, buffer, 0, max, 0);
    return buffer.subarray(0, read).toString('utf8');
  } finally {
    closeSync(fd);
  }
}
