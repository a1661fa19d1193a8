import { statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { findGitDir, readText } from './git-repo-walk.js';

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

/**
 * A linked worktree's git folder names the repository's own in `commondir`. A stat first: most git
 * folders have none, and a failed read throws (an exception's stack costs more than the stat).
 */
function commonDir(gitDir: string): string {
  const path = join(gitDir, 'commondir');
  if (statSync(path, { throwIfNoEntry: false }) === undefined) return gitDir;
  const named = readText(path)?.trim();
  return named ? resolve(gitDir, named) : gitDir;
}
