import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { git } from '../../test/support/git.js';
import { checkoutSessionWorktree, pushSessionWork } from './session-worktree.js';

let root: string;
let remote: string;
const session = '0f1e2d3c-4b5a-4978-8695-a4b3c2d1e0f9';
const branch = `kimi-ts/${session}`;

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'kimi-ts-session-worktree-'));
  remote = join(root, 'remote.git');
  const seed = join(root, 'seed');
  await mkdir(seed);
  git(root, 'init', '-q', '--bare', '-b', 'main', remote);
  git(seed, 'init', '-q', '-b', 'main');
  await writeFile(join(seed, 'README.md'), 'base\n');
  git(seed, 'add', '-A');
  git(seed, 'commit', '-q', '-m', 'base');
  git(seed, 'push', '-q', remote, 'main');
});
afterEach(() => rm(root, { recursive: true, force: true }));

it("the turn's work is committed and pushed even when the turn rewrote the worktree's .git pointer", async () => {
  const home = join(root, 'home');
  const worktree = await checkoutSessionWorktree(home, session, { url: remote, rev: 'main' });
  await writeFile(join(worktree, 'work.txt'), 'the work\n');
  // The turn points `.git` at a folder of its own, whose config would run a program on a push.
  const evil = join(root, 'evil');
  git(root, 'init', '-q', evil);
  git(evil, 'config', 'credential.helper', `!touch ${join(root, 'PWNED')}`);
  git(evil, 'config', 'core.sshCommand', `touch ${join(root, 'PWNED')}`);
  await writeFile(join(worktree, '.git'), `gitdir: ${join(evil, '.git')}\n`);
  let checked = 0;
  const commit = await pushSessionWork(home, session, 1, { url: remote, rev: 'main' }, async () => {
    checked++;
  });
  expect(checked).toBe(1);
  expect(git(remote, 'rev-parse', branch).trim()).toBe(commit);
  expect(git(remote, 'show', `${branch}:work.txt`)).toBe('the work\n');
  expect(git(remote, 'show', '-s', '--format=%s', branch).trim()).toBe(
    `kimi-ts: turn 1 of session ${session}`,
  );
  // Nothing went to the turn's folder, nothing ran.
  expect(git(evil, 'rev-list', '--all').trim()).toBe('');
  await expect(readFile(join(root, 'PWNED'))).rejects.toThrow(/ENOENT/);
  // The next turn (here, on the same worker) starts from the pushed branch.
  const again = await checkoutSessionWorktree(home, session, { url: remote, rev: 'main' });
  expect(await readFile(join(again, 'work.txt'), 'utf8')).toBe('the work\n');
});

it('the base may be a branch, a tag or a commit id; anything else is a clear error', async () => {
  const seed = join(root, 'seed');
  git(seed, 'tag', 'v1.0');
  git(seed, 'push', '-q', remote, 'v1.0');
  const base = git(seed, 'rev-parse', 'HEAD').trim();
  for (const [index, rev] of ['main', 'v1.0', base, base.slice(0, 10)].entries()) {
    const id = `0f1e2d3c-4b5a-4978-8695-a4b3c2d1e0f${index}`;
    const worktree = await checkoutSessionWorktree(join(root, 'home'), id, { url: remote, rev });
    expect(await readFile(join(worktree, 'README.md'), 'utf8')).toBe('base\n');
  }
  await expect(
    checkoutSessionWorktree(join(root, 'home'), session, { url: remote, rev: 'no-such-branch' }),
  ).rejects.toThrow('The revision no-such-branch is not a branch, a tag or a commit on a branch');
});

it('a lease lost before the push pushes nothing', async () => {
  const home = join(root, 'home');
  const worktree = await checkoutSessionWorktree(home, session, { url: remote, rev: 'main' });
  await writeFile(join(worktree, 'work.txt'), 'late work\n');
  await expect(
    pushSessionWork(home, session, 1, { url: remote, rev: 'main' }, async () => {
      throw new Error('lease lost');
    }),
  ).rejects.toThrow('lease lost');
  expect(git(remote, 'branch', '--list', branch).trim()).toBe('');
});
