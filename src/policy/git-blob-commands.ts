import { gitStoreRead } from './git-store-reads.js';

/**
 * When a command part's words run git to print stored files (`git show`, `git log -p`, `git diff
 * HEAD~1`): the global options that say which repository (`-C dir`, `--git-dir=…`, `--work-tree=…`);
 * else null (also for `git log` without a patch, which prints messages: git-store-reads.ts tells
 * those apart). Every word after `diff` is taken as a revision, never as a path.
 */
export function gitBlobReadRepoArgs(words: readonly string[]): string[] | null {
  const read = gitStoreRead(words, [], () => false);
  if (read === null) return null;
  switch (read.kind) {
    case 'history':
    case 'checkout':
      return [...read.repo.args];
    case 'messages':
    case 'writes':
    case 'alias':
    case 'unknownRepo':
    case 'remote':
      return null;
  }
}
