import { lstatSync, readFileSync, type Stats, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

/**
 * The git folder for `start`, as git finds it walking up: a `.git` folder, or a `.git` file's
 * `gitdir:`; null for a bare repository on the way (a folder with HEAD and objects) or an unreadable
 * `.git` file, 'none' when there is none at all.
 *
 * What each folder on the way holds is remembered while the folder is unchanged: one stat of the
 * folder instead of a stat of its `.git` and of its `HEAD` (most of the walk, outside a repository:
 * every folder up to the root, at every decision on a command that reads git's history). `now`:
 * the clock folders are judged settled on (tests move it).
 */
export function findGitDir(
  start: string,
  now: () => number = Date.now,
): { gitDir: string; top: string } | null | 'none' {
  for (let dir = resolve(start); ; ) {
    const level = levelOf(dir, now);
    switch (level.kind) {
      case 'gitFolder':
        return { gitDir: join(dir, '.git'), top: dir };
      case 'gitFile':
        return level.gitDir === null ? null : { gitDir: level.gitDir, top: dir };
      case 'bare':
        return null;
      case 'nothing':
        break;
    }
    const parent = dirname(dir);
    if (parent === dir) return 'none';
    dir = parent;
  }
}

/** What one folder holds that ends git's walk there, or lets it go on up. */
type Level =
  | { readonly kind: 'gitFolder' }
  | { readonly kind: 'gitFile'; readonly gitDir: string | null }
  /** A HEAD: the files of a bare repository, which git may take (null: git alone can say). */
  | { readonly kind: 'bare' }
  | { readonly kind: 'nothing' };

const GIT_FOLDER: Level = { kind: 'gitFolder' };
const BARE: Level = { kind: 'bare' };
const NOTHING: Level = { kind: 'nothing' };

/**
 * A folder's level, by its path, with the folder's identity (device, inode, modification and change
 * times) when it was read. Creating, removing or renaming an entry (a `.git`, a `HEAD`) changes the
 * folder's times; a path that now names another folder has another inode. Only levels that the
 * folder's own entries decide are kept: not a `.git` file (its text can change in place) nor a
 * symlinked `.git` or `HEAD` (its target can).
 */
interface KnownLevel {
  readonly dev: number;
  readonly ino: number;
  readonly mtimeMs: number;
  readonly ctimeMs: number;
  readonly level: Level;
}
const levels = new Map<string, KnownLevel>();
const MAX_LEVELS = 256;
/**
 * A folder changed less than this long before is not remembered: file times tick coarsely (a jiffy,
 * up to 10 ms), so a second change in the same tick would keep its times ("racy git"). A later
 * change has a change time at least this much later: times in ms as doubles tell it apart.
 */
const SETTLED_MS = 50;

function levelOf(dir: string, now: () => number): Level {
  const info = statSync(dir, { throwIfNoEntry: false });
  if (info !== undefined) {
    const known = levels.get(dir);
    if (known !== undefined && isSameFolder(known, info)) return known.level;
  }
  const found = readLevel(dir);
  if (info?.isDirectory() && found.lasting && info.ctimeMs < now() - SETTLED_MS) {
    if (levels.size >= MAX_LEVELS) levels.clear();
    levels.set(dir, {
      dev: info.dev,
      ino: info.ino,
      mtimeMs: info.mtimeMs,
      ctimeMs: info.ctimeMs,
      level: found.level,
    });
  }
  return found.level;
}

function isSameFolder(known: KnownLevel, info: Stats): boolean {
  return (
    known.ino === info.ino &&
    known.dev === info.dev &&
    known.mtimeMs === info.mtimeMs &&
    known.ctimeMs === info.ctimeMs
  );
}

/** The folder's level as its entries say now; `lasting`: it holds while the folder is unchanged. */
function readLevel(dir: string): { level: Level; lasting: boolean } {
  const dotGit = join(dir, '.git');
  // lstat: an entry that is no symlink is what stat would find, and it changes only with the folder.
  let gitEntry = lstatSync(dotGit, { throwIfNoEntry: false });
  let lasting = true;
  if (gitEntry?.isSymbolicLink()) {
    gitEntry = statSync(dotGit, { throwIfNoEntry: false });
    lasting = false;
  }
  if (gitEntry?.isDirectory()) return { level: GIT_FOLDER, lasting };
  if (gitEntry?.isFile()) {
    const found = /^gitdir: (.+)$/m.exec(readText(dotGit) ?? '');
    const gitDir = found?.[1] === undefined ? null : resolve(dir, found[1].trim());
    return { level: { kind: 'gitFile', gitDir }, lasting: false };
  }
  const headPath = join(dir, 'HEAD');
  let head = lstatSync(headPath, { throwIfNoEntry: false });
  if (head?.isSymbolicLink()) {
    head = statSync(headPath, { throwIfNoEntry: false });
    lasting = false;
  }
  return { level: head === undefined ? NOTHING : BARE, lasting };
}

export function readText(path: string): string | null {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return null;
  }
}
