import { statSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** The nearest folder holding `.git` (a folder, or a file in a worktree), from `dir` up; null outside git. */
export async function findGitRoot(dir: string): Promise<string | null> {
  for (let current = dir; ; current = dirname(current)) {
    if (holdsGit(current)) return current;
    if (dirname(current) === current) return null;
  }
}

/**
 * Whether `dir/.git` exists. A synchronous stat that returns nothing for a missing entry: the
 * promise API's ENOENT error per level (an exception with its stack, and a trip through the event
 * loop) made this walk a few ms of every start, which runs it twice before its first model request.
 */
function holdsGit(dir: string): boolean {
  try {
    return statSync(join(dir, '.git'), { throwIfNoEntry: false }) !== undefined;
  } catch {
    // unreadable, or not a folder on the way: not here
    return false;
  }
}
