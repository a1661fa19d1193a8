import { readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

/**
 * Where a repository keeps its objects, and a signature of them that changes whenever one is added
 * or removed: the inode and modification time (ns) of `objects/`, `objects/pack/` and each of the
 * 256 fan-out folders of loose objects (a new loose object adds an entry to one; a new pack to
 * `pack/`). Listing every object (`git cat-file --batch-all-objects`) took ~80 ms of a git process
 * for a 56 MiB store at every command that prints blobs; these ~260 stats take a fraction of a
 * millisecond. Null when the store has alternates (objects of another repository) or a folder of
 * it cannot be read: the caller then lists the objects as before. The repository is found by
 * gitRepoPlace (below).
 */
export function storeSignatureOf(place: GitRepoPlace): { objects: string; signature: string } | null {
  const objects = join(place.commonDir, 'objects');
  if (statSync(join(objects, 'info', 'alternates'), { throwIfNoEntry: false }) !== undefined) return null;
  const parts: string[] = [];
  for (const folder of [objects, join(objects, 'pack'), ...FAN_OUT.map((name) => join(objects, name))]) {
    let stat: ReturnType<typeof statBig>;
    try {
      stat = statBig(folder);
    } catch {
      return null;
    }
    // A fan-out folder that does not exist yet is part of the state too: its making changes it.
    parts.push(stat === undefined ? '-' : `${stat.ino}:${stat.mtimeNs}`);
  }
  return { objects, signature: parts.join(',') };
}

/** Where git finds a repository from a command's folder, found without git (the way git walks up). */
export interface GitRepoPlace {
  /** Its git folder (`.git`, or a linked worktree's folder in the repository's). */
  readonly gitDir: string;
  /** The repository's own git folder (objects, refs, config): `gitDir` but for a linked worktree. */
  readonly commonDir: string;
  /** The top of its work tree. */
  readonly top: string;
}

/**
 * The repository a git command with these global options works in, from `cwd`; null when it cannot
 * be found for sure without git (GIT_DIR or GIT_OBJECT_DIRECTORY in the environment, a `--git-dir`
 * or `--work-tree` given, a bare repository's files above); 'none' when git would find no repository
 * there either (no `.git` in the folder or any above it, none of them a bare repository).
 */
export function gitRepoPlace(gitArgs: readonly string[], cwd: string): GitRepoPlace | null | 'none' {
  if (process.env.GIT_DIR || process.env.GIT_OBJECT_DIRECTORY || process.env.GIT_COMMON_DIR) return null;
  if (process.env.GIT_WORK_TREE || process.env.GIT_INDEX_FILE) return null;
  let start = cwd;
  for (let i = 0; i < gitArgs.length; i++) {
    const arg = gitArgs[i]!;
    if (arg === '-C' && gitArgs[i + 1] !== undefined) start = resolve(start, gitArgs[++i]!);
    else if (arg.startsWith('--git-dir') || arg.startsWith('--work-tree')) return null;
  }
  const found = findGitDir(start);
  if (found === null || found === 'none') return found;
  return { gitDir: found.gitDir, commonDir: commonDir(found.gitDir), top: found.top };
}

const FAN_OUT: readonly string[] = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

function statBig(path: string) {
  return statSync(path, { bigint: true, throwIfNoEntry: false });
}

/**
 * The git folder for `start`, as git finds it walking up: a `.git` folder, or a `.git` file's
 * `gitdir:`; null for a bare repository on the way (a folder with HEAD and objects) or an unreadable
 * `.git` file, 'none' when there is none at all.
 */
function findGitDir(start: string): { gitDir: string; top: string } | null | 'none' {
  for (let dir = resolve(start); ; ) {
    const dotGit = join(dir, '.git');
    const stat = statSync(dotGit, { throwIfNoEntry: false });
    if (stat?.isDirectory()) return { gitDir: dotGit, top: dir };
    if (stat?.isFile()) {
      const found = /^gitdir: (.+)$/m.exec(readText(dotGit) ?? '');
      return found?.[1] === undefined ? null : { gitDir: resolve(dir, found[1].trim()), top: dir };
    }
    if (statSync(join(dir, 'HEAD'), { throwIfNoEntry: false }) !== undefined) return null;
    const parent = dirname(dir);
    if (parent === dir) return 'none';
    dir = parent;
  }
}

/** A linked worktree's git folder names the repository's own in `commondir`. */
function commonDir(gitDir: string): string {
  const named = readText(join(gitDir, 'commondir'))?.trim();
  return named ? resolve(gitDir, named) : gitDir;
}

function readText(path: string): string | null {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return null;
  }
}
