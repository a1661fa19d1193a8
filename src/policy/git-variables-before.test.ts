import { expect, it } from 'vitest';
import { gitVariablesBefore } from './git-variables-before.js';
import { splitWords } from './shell-split-words.js';

function before(parts: string[]): string[] {
  return gitVariablesBefore(parts.map(splitWords), parts.length - 1);
}

it.each([
  [['export GIT_DIR=sub/.git', 'git log -p'], ['GIT_DIR=sub/.git']],
  [
    ['declare -x GIT_DIR=a GIT_WORK_TREE=b X=1', 'git log -p'],
    ['GIT_DIR=a', 'GIT_WORK_TREE=b'],
  ],
  [['GIT_DIR=sub/.git', 'export GIT_DIR', 'git log -p'], ['GIT_DIR=sub/.git']],
  [
    ['export GIT_DIR=a', 'export GIT_DIR=b', 'git show'],
    ['GIT_DIR=a', 'GIT_DIR=b'],
  ],
  [['GIT_OBJECT_DIRECTORY=/o X=1', 'git show'], ['GIT_OBJECT_DIRECTORY=/o']],
])('%j: git sees %j', (parts, seen) => {
  expect(before(parts)).toEqual(seen);
});

it.each([
  [['GIT_DIR=sub/.git git status', 'git log -p']],
  [['echo GIT_DIR=x', 'git log -p']],
  [['export X=1', 'git log -p']],
  [['git log -p', 'export GIT_DIR=sub/.git']],
])('%j: nothing before git', (parts) => {
  expect(before(parts)).toEqual([]);
});
