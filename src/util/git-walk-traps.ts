import { lstatSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { isWithinDirectory } from './path-within.js';
import { TooManyFoldersError, WorkTreeWalk } from './work-tree-walk.js';

/**
 * What in a work tree would make a git walk of it (`ls-files --others`, `add -A`) wait forever or
 * read without end. kimi-ts runs such walks outside any sandbox (the checkpoints after each step, the
 * commit of an agent's worktree) over files a sandboxed command may have written:
 *
 * - **a nested `.git` git's repository probe opens**: for every untracked folder git asks whether it
 *   is a repository of its own, opening `HEAD` and reading `commondir` whole in its `.git` (or
 *   wherever a gitfile or a symlinked `.git` leads). A `HEAD` FIFO made git wait forever; a
 *   `commondir` leading to /dev/zero or a huge sparse file made it read until memory ran out. git has
 *   no setting that skips the probe; it skips it for a folder the index holds entries under, or one a
 *   pathspec leaves out. A real `.git` folder is judged by what git's probe reads in it (setup.c,
 *   is_git_directory), more strictly; a gitfile or a symlinked `.git` is a trap whatever it names
 *   (git follows it in its own process: `/proc/self/cwd` is git's cwd there, kimi-ts's here).
 * - **a `.gitignore` or `.gitattributes`** that is not a regular file of sane size (a symlink
 *   included): git opens each folder's as it walks in (a FIFO: it waits) and reads a `.gitignore`
 *   whole into memory.
 *
 * The folders are walked by a WorkTreeWalk (src/util/work-tree-walk.ts: each reading after the first
 * reads again only the folders that changed); the special files found are checked again each time
 * (what a `.git` leads to may change while its folder does not). Symlinked folders are not walked
 * (git does not walk them).
 */
export interface GitWalkTraps {
  /** Folders (relative, `/`-separated) whose `.git` git's probe must never open. */
  nestedGit: string[];
  /** Folders whose `.gitignore` or `.gitattributes` git must never open (`''`: the top folder). */
  ruleFiles: string[];
}

export class GitTrapWalk {
  private readonly walk: WorkTreeWalk;

  constructor(
    root: string,
    /** Past this many folders the walk gives up (an error): what it holds grows with the tree. */
    private readonly maxFolders = MAX_WALK_FOLDERS,
  ) {
    this.walk = new WorkTreeWalk(root);
  }

  async read(signal?: AbortSignal): Promise<GitWalkTraps> {
    const traps: GitWalkTraps = { nestedGit: [], ruleFiles: [] };
    try {
      await this.walk.read(
        [
          ({ path, relative, facts }) => {
            if (facts.dotGit !== null && relative !== '' && isProbeTrap(join(path, '.git')))
              traps.nestedGit.push(relative);
            if (facts.ruleFiles.some((name) => isRuleFileTrap(join(path, name))))
              traps.ruleFiles.push(relative);
          },
        ],
        { signal, maxFolders: this.maxFolders },
      );
    } catch (error) {
      if (error instanceof TooManyFoldersError)
        throw new Error(`${error.message}; git is not let walk it (it could not be checked first).`);
      throw error;
    }
    // The person's own ignore and attributes files, which git reads for every walk (HOME is the
    // only variable of theirs git gets): a command may write them when the root holds the home.
    const top = resolve(this.walk.root);
    const home = resolve(process.env.HOME || homedir());
    const config = join(home, '.config', 'git');
    if (
      isWithinDirectory(home, top) &&
      !traps.ruleFiles.includes('') &&
      ['ignore', 'attributes'].some((name) => isRuleFileTrap(join(config, name)))
    )
      traps.ruleFiles.unshift('');
    return traps;
  }
}

/**
 * The most folders one walk reads (ignored ones, node_modules, count too): a command can make
 * millions of empty folders with long names, and the walk holds each one's path. A repository of a
 * few million files has fewer.
 */
export const MAX_WALK_FOLDERS = 200_000;
/** The most bytes a harmless `HEAD` or `commondir` holds (a ref name, a path). */
const MAX_SMALL_FILE_BYTES = 64 * 1024;
/** The largest `.gitignore` or `.gitattributes` git is let read (git's own cap for attributes is 100 MB). */
const MAX_RULE_FILE_BYTES = 16 * 1024 * 1024;

/**
 * Whether git could wait on or read without end a `.gitignore` / `.gitattributes` (or an exclude
 * file) at `path`. A symlink counts as one: git resolves it in its own process, where `/proc/self/…`
 * is git (its stdout is a pipe it writes, which it would wait on), not here (git 2.32 and later do not
 * follow one there; older ones do).
 */
export function isRuleFileTrap(path: string): boolean {
  const stat = lstatQuietly(path);
  if (stat === undefined) return false;
  return !stat.isFile() || stat.size > MAX_RULE_FILE_BYTES;
}

/**
 * Whether git's probe of the `.git` at `dotGit` could wait or read without bound. Only a real `.git`
 * folder is judged by what is in it; a gitfile or a symlinked `.git` is a trap whatever it names:
 * git follows it in its own process (`gitdir: /proc/self/cwd/x` is the root's `x` to git and
 * kimi-ts's own folder here), so what this process sees there proves nothing.
 */
export function isProbeTrap(dotGit: string): boolean {
  const stat = lstatQuietly(dotGit);
  if (stat === undefined) return false;
  if (stat.isDirectory()) return isGitDirTrap(dotGit);
  // A FIFO, socket or device named `.git` is no repository to git (it wants a folder or a regular file).
  return stat.isFile() || stat.isSymbolicLink();
}

/**
 * What git's probe reads in a `.git` folder: `HEAD` (a symlink is only read as a link; a file, 255
 * bytes of it) and `commondir` (read whole, through a symlink in git's own process): anything else
 * there is a trap.
 */
function isGitDirTrap(gitDir: string): boolean {
  const head = lstatQuietly(join(gitDir, 'HEAD'));
  if (head !== undefined && !head.isSymbolicLink() && !(head.isFile() && head.size <= MAX_SMALL_FILE_BYTES))
    return true;
  const commondir = lstatQuietly(join(gitDir, 'commondir'));
  return commondir !== undefined && !(commondir.isFile() && commondir.size <= MAX_SMALL_FILE_BYTES);
}

function lstatQuietly(path: string) {
  try {
    return lstatSync(path, { throwIfNoEntry: false });
  } catch {
    return undefined;
  }
}

/** More folders to leave out than a command line should carry: nothing is walked then. */
export const MAX_LEFT_OUT = 400;

/** The error when the traps cannot be walked around: one at the top, or too many. */
export function trapsRefusal(traps: GitWalkTraps): string | null {
  if (traps.ruleFiles.includes(''))
    return 'a .gitignore or .gitattributes at the top (or in ~/.config/git) is not a plain file git can read safely';
  if (traps.ruleFiles.length > MAX_LEFT_OUT)
    return `${traps.ruleFiles.length} folders hold a .gitignore or .gitattributes git cannot read safely`;
  return null;
}

/**
 * Pathspecs that keep a `git add -A` in a tree an agent wrote out of every trap folder (an excluded
 * folder is neither probed nor walked), where no placeholder can go into the index (it is the
 * person's). Those folders' files are not staged.
 */
export async function trapExcludes(workTree: string, signal?: AbortSignal): Promise<string[]> {
  const traps = await new GitTrapWalk(workTree).read(signal);
  const refusal = trapsRefusal(traps);
  if (refusal !== null) throw new Error(`${refusal}; nothing was staged.`);
  const folders = [...traps.nestedGit, ...traps.ruleFiles];
  if (folders.length > MAX_LEFT_OUT)
    throw new Error(`${folders.length} folders hold a .git git cannot look into safely; nothing was staged.`);
  return folders.map((folder) => `:(top,exclude,literal)${folder}`);
}
