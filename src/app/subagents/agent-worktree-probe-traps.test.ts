import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { addAgentWorktree, finishAgentWorktree } from './agent-worktree.js';

/**
 * The agent writes its worktree; `git add -A` at its end asks of every untracked folder whether it
 * is a repository, opening files in its `.git`: a HEAD that is a FIFO made git wait (until the 60 s
 * kill), a commondir leading to /dev/zero made it read until memory ran out.
 */
let root = '';

afterEach(async () => {
  if (root) await rm(root, { recursive: true, force: true });
  root = '';
});

const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', ['-c', 'core.hooksPath=/dev/null', ...args], {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' },
  });

it('a nested .git whose HEAD is a FIFO, a .gitignore FIFO: the agent work is committed at once, the trap folders left out', async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), 'kimi-ts-worktree-traps-')));
  const repo = join(root, 'repo');
  await mkdir(repo);
  git(repo, 'init', '-q', '-b', 'main');
  await writeFile(join(repo, 'a.txt'), 'one\n');
  git(repo, 'add', '-A');
  git(repo, '-c', 'user.name=P', '-c', 'user.email=p@p.invalid', 'commit', '-q', '-m', 'first');
  const worktree = await addAgentWorktree({
    workDir: repo,
    worktreesDir: join(root, 'home', 'worktrees'),
    ownerId: 'straps',
    index: 0,
    signal: new AbortController().signal,
  });
  await writeFile(join(worktree.workDir, 'b.txt'), 'b\n');
  const trap = join(worktree.workDir, 'sub', '.git');
  await mkdir(join(trap, 'objects'), { recursive: true });
  await mkdir(join(trap, 'refs'));
  execFileSync('mkfifo', [join(trap, 'HEAD')]);
  await writeFile(join(worktree.workDir, 'sub', 'f.txt'), 'f\n');
  // And a folder whose .gitignore is a FIFO (git opens it as it walks in).
  await mkdir(join(worktree.workDir, 'ign'));
  await writeFile(join(worktree.workDir, 'ign', 'g.txt'), 'g\n');
  execFileSync('mkfifo', [join(worktree.workDir, 'ign', '.gitignore')]);
  const outcome = await finishAgentWorktree(worktree, 'item');
  expect(outcome.branch).toBe('kimi-ts/straps/0');
  expect(git(repo, 'ls-tree', '-r', '--name-only', 'kimi-ts/straps/0').trim().split('\n')).toEqual([
    'a.txt',
    'b.txt',
  ]);
}, 20_000);
