import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { git } from '../../test/support/git.js';
import { checkoutSessionWorktree, pushSessionWork } from './session-worktree.js';

/**
 * A `--repo` remote on the worker's file system: its far side of a fetch or push (upload-pack,
 * receive-pack) runs on the worker, reading the remote's own config. Hooks are off there; no other
 * setting of that config may run a program either.
 */

let root: string;
let remote: string;
let pwned: string;
const session = '1a2b3c4d-5e6f-4a8b-9c0d-e1f2a3b4c5d6';
const repo = () => ({ url: remote, rev: 'main' });

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'kimi-ts-remote-config-'));
  pwned = join(root, 'PWNED');
  const seed = join(root, 'seed');
  await mkdir(seed);
  git(seed, 'init', '-q', '-b', 'main');
  await writeFile(join(seed, 'README.md'), 'base\n');
  git(seed, 'add', '-A');
  git(seed, 'commit', '-q', '-m', 'base');
});
afterEach(() => rm(root, { recursive: true, force: true }));

async function pushOneTurn(): Promise<void> {
  const home = join(root, 'home');
  const worktree = await checkoutSessionWorktree(home, session, repo());
  await writeFile(join(worktree, 'work.txt'), 'the work\n');
  await pushSessionWork(home, session, 1, repo(), async () => undefined);
  expect(git(remote, 'show', `refs/heads/kimi-ts/${session}:work.txt`)).toBe('the work\n');
}

it('a bare remote whose config names an alternate-refs command: it never runs', async () => {
  remote = join(root, 'remote.git');
  git(root, 'init', '-q', '--bare', '-b', 'main', remote);
  git(join(root, 'seed'), 'push', '-q', remote, 'main');
  const alternate = join(root, 'alternate.git');
  git(root, 'init', '-q', '--bare', alternate);
  await writeFile(join(remote, 'objects', 'info', 'alternates'), `${join(alternate, 'objects')}\n`);
  git(remote, 'config', 'core.alternateRefsCommand', `touch '${pwned}'; true`);
  await pushOneTurn();
  expect(existsSync(pwned)).toBe(false);
});

it('a non-bare remote checked out on the session branch, updating its work tree with an fsmonitor', async () => {
  remote = join(root, 'remote');
  git(root, 'clone', '-q', join(root, 'seed'), remote);
  git(remote, 'checkout', '-q', '-b', `kimi-ts/${session}`);
  git(remote, 'config', 'receive.denyCurrentBranch', 'updateInstead');
  git(remote, 'config', 'core.fsmonitor', `touch '${pwned}'; true`);
  await rm(pwned, { force: true });
  await pushOneTurn().catch(() => undefined);
  expect(existsSync(pwned)).toBe(false);
});
