import type { GitRepoWords, GitStoreRead, GitWord } from './git-store-read-kinds.js';

/** git commands that may write the files of another commit into the work tree. */
export type WorktreeWriteCommand =
  | 'add'
  | 'checkout'
  | 'switch'
  | 'restore'
  | 'reset'
  | 'stash'
  | 'merge'
  | 'cherry-pick'
  | 'revert'
  | 'rebase'
  | 'read-tree'
  | 'bisect';

/**
 * Whether a git command (not its `-p` form) writes stored files of a commit other than the work
 * tree's into the work tree: `git checkout HEAD~1`, `git restore -s HEAD~1 notes`, `git reset --hard
 * v1`, `git stash pop`, a merge, a rebase. Such a command prints no stored file itself, but a later
 * part of the same line reads what it wrote (`git checkout -q HEAD~1 && cat notes`) though the file
 * held no secret when the line was judged. `isPath(word)`: the word names an existing file or folder.
 */
export function writesStoredFiles(
  subcommand: WorktreeWriteCommand,
  rest: readonly GitWord[],
  isPath: (word: string) => boolean,
): boolean {
  switch (subcommand) {
    case 'add':
      return false;
    case 'checkout':
    case 'switch':
      return namesRevision(rest, isPath);
    case 'restore':
      return rest.some((word) => word === null || word === '-s' || word.startsWith('--source'));
    case 'reset':
      return rest.some((word) => word === null || RESET_WRITES.test(word));
    case 'stash':
      return rest[0] === null || rest[0] === 'apply' || rest[0] === 'pop' || rest[0] === 'branch';
    case 'bisect':
      return rest[0] !== 'log' && rest[0] !== 'view' && rest[0] !== 'visualize' && rest[0] !== 'help';
    case 'merge':
    case 'cherry-pick':
    case 'revert':
    case 'rebase':
    case 'read-tree':
      return true;
  }
}

/**
 * `git checkout` / `git switch` with a word that may be a revision (`main`, `HEAD~1`, `-b new v1`):
 * not only paths (`git checkout -- notes` and `git checkout notes` take them from the index).
 */
function namesRevision(rest: readonly GitWord[], isPath: (word: string) => boolean): boolean {
  for (let k = 0; k < rest.length; k++) {
    const word = rest[k]!;
    if (word === '--') return false;
    if (word === null) return true;
    if (BRANCH_NAMING.has(word)) k++;
    else if (word === '--detach' || word === '-d') return true;
    else if (!word.startsWith('-') && !isPath(word)) return true;
  }
  return false;
}

/** `git reset` modes that write the work tree. */
const RESET_WRITES = /^--(?:hard|merge|keep)$/;

/** Options naming the branch to make (`-b new`): the word after is a name, not a revision. */
const BRANCH_NAMING: ReadonlySet<string> = new Set([
  '-b',
  '-B',
  '-c',
  '-C',
  '--orphan',
  '--create',
  '--force-create',
]);

/** A command writing stored files into the work tree (git-worktree-writes.ts). */
export function writesRead(
  subcommand: WorktreeWriteCommand,
  rest: readonly GitWord[],
  repo: GitRepoWords,
  isPath: (word: string, repo: GitRepoWords) => boolean,
): GitStoreRead | null {
  return writesStoredFiles(subcommand, rest, (word) => isPath(word, repo)) ? { kind: 'writes', repo } : null;
}
