import { stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';

/** The nearest folder holding `.git` (a folder, or a file in a worktree), from `dir` up; null outside git. */
export async function findGitRoot(dir: string): Promise<string | null> {
  for (let current = dir; ; current = dirname(current)) {
    try {
      await stat(join(current, '.git'));
      return current;
    } catch {
      // not here: one level up
    }
    if (dirname(current) === current) return null;
  }
}
