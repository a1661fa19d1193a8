import { readdir } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';

/** Why a nested repository's `.git` stays after a rewind removed the files around it. */
export const REPOSITORY_LEFT =
  "a repository's own git folder: checkpoints never record it, so a rewind never removes it";

/**
 * The `.git` folders (or gitfiles) left alone in folders a rewind emptied: a nested repository a turn
 * created (a clone, a `git init`) loses the files the checkpoints recorded, never its history. Named
 * in the report, so the person knows the folder is still there and why.
 */
export async function repositoriesLeft(root: string, emptiedFolders: Iterable<string>): Promise<string[]> {
  const found = new Set<string>();
  for (const folder of emptiedFolders) {
    for (let current = folder; current !== root && current.startsWith(`${root}${sep}`); ) {
      const names = await readdir(current).catch(() => null);
      if (names?.length === 1 && names[0] === '.git')
        found.add(relative(root, join(current, '.git')).split(sep).join('/'));
      current = dirname(current);
    }
  }
  return [...found].sort();
}
