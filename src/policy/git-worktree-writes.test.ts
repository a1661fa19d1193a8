import { describe, expect, it } from 'vitest';
import { type WorktreeWriteCommand, writesStoredFiles } from './git-worktree-writes.js';

/** Whether a git command writes another commit's files into the work tree: `notes` and `src` exist. */
const isPath = (word: string) => word === 'notes' || word === 'src';

function writes(command: string): boolean {
  const [subcommand, ...words] = command.split(' ') as [WorktreeWriteCommand, ...string[]];
  return writesStoredFiles(subcommand, words, isPath);
}

describe('writesStoredFiles', () => {
  it.each([
    'checkout HEAD~1',
    'checkout -q main',
    'checkout HEAD~1 -- notes',
    'checkout -b new v1',
    'checkout --detach',
    'switch main',
    'switch -c new HEAD~3',
    'restore -s HEAD~1 notes',
    'restore --source=v1 src',
    'reset --hard HEAD~1',
    'reset --keep v1',
    'stash pop',
    'stash apply stash@{1}',
    'stash branch b',
    'merge topic',
    'cherry-pick abc123',
    'revert HEAD',
    'rebase main',
    'read-tree -u -m HEAD~1',
    'bisect start HEAD v1',
  ])('git %s writes stored files', (command) => {
    expect(writes(command)).toBe(true);
  });

  it.each([
    'checkout',
    'checkout -- notes',
    'checkout notes src',
    'checkout -b new',
    'switch -c new',
    'restore notes',
    'restore --staged notes',
    'reset',
    'reset HEAD notes',
    'reset --soft HEAD~1',
    'stash list',
    'stash drop',
    'bisect log',
    'add notes',
  ])('git %s writes no other commit', (command) => {
    expect(writes(command)).toBe(false);
  });

  it('a word only run time knows may be a revision', () => {
    expect(writesStoredFiles('checkout', [null], isPath)).toBe(true);
    expect(writesStoredFiles('reset', [null], isPath)).toBe(true);
  });
});
