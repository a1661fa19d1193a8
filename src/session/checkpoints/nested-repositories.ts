import { nulFields, runGit } from './git-runner.js';

/** git's mode for a gitlink: what `git add` records for a folder that is a repository of its own. */
const GITLINK_MODE = '160000';

/**
 * The nested repositories the checkpoints hold (as `root/path` keys, the store's tree layout): a
 * folder with a `.git` of its own inside a root. git records such a folder as a gitlink (its HEAD
 * commit), never its files, so a rewind cannot bring back what changed inside it; the person is told
 * which folders those are instead of being left to think they were restored.
 */
export async function nestedRepositories(
  gitDir: string,
  checkpointIds: readonly string[],
  signal?: AbortSignal,
): Promise<string[]> {
  const found = new Set<string>();
  for (const id of new Set(checkpointIds)) {
    const { stdout } = await runGit(['ls-tree', '-r', '-z', id], { gitDir, signal });
    for (const entry of nulFields(stdout)) {
      // "<mode> <type> <object>\t<path>"; most entries are blobs: one comparison each.
      if (!entry.startsWith(GITLINK_MODE)) continue;
      const tab = entry.indexOf('\t');
      if (tab >= 0) found.add(entry.slice(tab + 1));
    }
  }
  return [...found].sort();
}
