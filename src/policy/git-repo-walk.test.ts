import { mkdirSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { findGitDir } from './git-repo-walk.js';

let root: string;
let deep: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'kimi-ts-git-walk-'));
  deep = join(root, 'a', 'b', 'c');
  mkdirSync(deep, { recursive: true });
  settle();
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

/**
 * The folders' times set an hour back (a second further at each call), and the walk's clock an hour
 * on: every folder counts as settled, so its level is remembered, and only the folder's own times
 * can tell it changed.
 */
let settles = 0;
function settle(): void {
  const past = new Date(Date.now() - 3_600_000 - ++settles * 1_000);
  for (const dir of [root, join(root, 'a'), join(root, 'a', 'b'), deep]) utimesSync(dir, past, past);
}
const later = () => Date.now() + 3_600_000;

it('finds a .git folder made above a folder already walked through', () => {
  expect(findGitDir(deep, later)).toBe('none');
  expect(findGitDir(deep, later)).toBe('none');
  mkdirSync(join(root, 'a', '.git'));
  expect(findGitDir(deep, later)).toEqual({ gitDir: join(root, 'a', '.git'), top: join(root, 'a') });
  settle();
  expect(findGitDir(deep, later)).toEqual({ gitDir: join(root, 'a', '.git'), top: join(root, 'a') });
  rmSync(join(root, 'a', '.git'), { recursive: true });
  expect(findGitDir(deep, later)).toBe('none');
});

it('stops at a HEAD made on the way (a bare repository git alone can judge)', () => {
  expect(findGitDir(deep, later)).toBe('none');
  writeFileSync(join(root, 'a', 'b', 'HEAD'), 'ref: refs/heads/main\n');
  expect(findGitDir(deep, later)).toBeNull();
});

it("reads a .git file's gitdir again when its text changes in place", () => {
  writeFileSync(join(deep, '.git'), 'gitdir: ../one\n');
  settle();
  expect(findGitDir(deep, later)).toEqual({ gitDir: join(root, 'a', 'b', 'one'), top: deep });
  // The same file rewritten: the folder's times stay, the file's text does not.
  writeFileSync(join(deep, '.git'), 'gitdir: ../two\n');
  expect(findGitDir(deep, later)).toEqual({ gitDir: join(root, 'a', 'b', 'two'), top: deep });
});

it('follows a symlinked .git to what it names now', () => {
  mkdirSync(join(root, 'real'));
  symlinkSync(join(root, 'real'), join(deep, '.git'));
  settle();
  expect(findGitDir(deep, later)).toEqual({ gitDir: join(deep, '.git'), top: deep });
  // The target swapped for a file, the symlink and its folder untouched.
  rmSync(join(root, 'real'), { recursive: true });
  writeFileSync(join(root, 'real'), 'gitdir: /elsewhere\n');
  expect(findGitDir(deep, later)).toEqual({ gitDir: '/elsewhere', top: deep });
});

it('takes a folder swapped in under the same path for a new one', () => {
  expect(findGitDir(deep, later)).toBe('none');
  rmSync(join(root, 'a', 'b'), { recursive: true });
  mkdirSync(join(root, 'a', 'b', 'c', '.git'), { recursive: true });
  settle();
  expect(findGitDir(deep, later)).toEqual({ gitDir: join(deep, '.git'), top: deep });
});

it('walks a folder that is not there as git would (up from it)', () => {
  mkdirSync(join(root, '.git'));
  expect(findGitDir(join(deep, 'missing', 'x'), later)).toEqual({ gitDir: join(root, '.git'), top: root });
});
