import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  addAgentWorktree,
  finishAgentWorktree,
  WorktreeTamperedError,
  WorktreeUnavailableError,
  worktreeBranch,
} from './agent-worktree.js';
import { recoverLeftWorktrees } from './worktree-recovery.js';

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

/** A repository with one commit, a dirty file, an untracked file and a stash entry. */
async function personRepo(): Promise<{ repo: string; home: string }> {
  root = await realpath(await mkdtemp(join(tmpdir(), 'kimi-ts-worktree-')));
  const repo = join(root, 'repo');
  const home = join(root, 'home', 'worktrees');
  await mkdir(repo);
  git(repo, 'init', '-q', '-b', 'main');
  git(repo, 'config', 'user.name', 'Person');
  git(repo, 'config', 'user.email', 'person@example.invalid');
  await writeFile(join(repo, 'a.txt'), 'one\n');
  await writeFile(join(repo, 'stashed.txt'), 'base\n');
  git(repo, 'add', '-A');
  git(repo, 'commit', '-q', '-m', 'first');
  await writeFile(join(repo, 'stashed.txt'), 'stashed change\n');
  git(repo, 'stash', '-q');
  await writeFile(join(repo, 'a.txt'), 'dirty\n');
  await writeFile(join(repo, 'untracked.txt'), 'mine\n');
  git(repo, 'add', 'a.txt');
  return { repo, home };
}

function personState(repo: string) {
  return {
    status: git(repo, 'status', '--porcelain'),
    stash: git(repo, 'stash', 'list'),
    worktrees: git(repo, 'worktree', 'list', '--porcelain')
      .split('\n')
      .filter((l) => l.startsWith('worktree ')),
    head: git(repo, 'rev-parse', 'HEAD'),
  };
}

describe('an isolated subagent worktree', () => {
  it('is made from HEAD under the agent home, committed on its branch and removed, the person untouched', async () => {
    const { repo, home } = await personRepo();
    const before = personState(repo);
    const signal = new AbortController().signal;
    const worktree = await addAgentWorktree({
      workDir: repo,
      worktreesDir: home,
      ownerId: 's1234abcd',
      index: 2,
      signal,
    });
    expect(worktree.branch).toBe('kimi-ts/s1234abcd/2');
    expect(worktree.path.startsWith(home)).toBe(true);
    // From HEAD: the committed text, not the person's staged or stashed changes.
    expect(await readFile(join(worktree.workDir, 'a.txt'), 'utf8')).toBe('one\n');
    expect(existsSync(join(worktree.workDir, 'untracked.txt'))).toBe(false);
    await writeFile(join(worktree.workDir, 'a.txt'), 'changed by the agent\n');
    await writeFile(join(worktree.workDir, 'new.txt'), 'new\n');

    const outcome = await finishAgentWorktree(worktree, 'swarm item 2:\n\u001b[31mred\u001b[0m');
    expect(outcome.branch).toBe('kimi-ts/s1234abcd/2');
    expect(outcome.diffStat).toMatch(/2 files changed/);
    expect(existsSync(worktree.path)).toBe(false);
    expect(personState(repo)).toEqual(before);
    expect(git(repo, 'log', '-1', '--format=%an <%ae>|%s', 'kimi-ts/s1234abcd/2').trim()).toBe(
      'kimi-ts <agent@kimi-ts.invalid>|swarm item 2: [31mred [0m',
    );
    expect(git(repo, 'show', 'kimi-ts/s1234abcd/2:new.txt')).toBe('new\n');
  });

  it('deletes the branch of a run that changed nothing', async () => {
    const { repo, home } = await personRepo();
    const signal = new AbortController().signal;
    const worktree = await addAgentWorktree({
      workDir: repo,
      worktreesDir: home,
      ownerId: 'a0000beef',
      index: 1,
      signal,
    });
    const outcome = await finishAgentWorktree(worktree, 'nothing');
    expect(outcome).toEqual({ branch: null, diffStat: '' });
    expect(git(repo, 'branch', '--list', 'kimi-ts/*').trim()).toBe('');
  });

  it('runs none of the hooks, fsmonitor or filters the repository configures', async () => {
    const { repo, home } = await personRepo();
    const marker = join(root, 'ran');
    const evil = join(root, 'evil.sh');
    await writeFile(evil, `#!/bin/sh\necho "$0 $*" >> '${marker}'\ncat\n`, { mode: 0o755 });
    await mkdir(join(repo, '.git', 'hooks'), { recursive: true });
    for (const hook of ['post-checkout', 'pre-commit', 'commit-msg', 'post-commit', 'reference-transaction'])
      await writeFile(join(repo, '.git', 'hooks', hook), `#!/bin/sh\n'${evil}' ${hook}\n`, { mode: 0o755 });
    // The attributes are committed first: then the repository's config turns hostile.
    await writeFile(join(repo, '.gitattributes'), '* filter=evil\n');
    git(repo, 'add', '.gitattributes');
    git(repo, 'commit', '-q', '-m', 'attrs');
    git(repo, 'config', 'core.fsmonitor', evil);
    git(repo, 'config', 'filter.evil.smudge', evil);
    git(repo, 'config', 'filter.evil.clean', evil);
    git(repo, 'config', 'filter.evil.required', 'true');
    git(repo, 'config', 'commit.gpgSign', 'true');
    git(repo, 'config', 'gpg.program', evil);
    await rm(marker, { force: true });

    const worktree = await addAgentWorktree({
      workDir: repo,
      worktreesDir: home,
      ownerId: 's0badc0de',
      index: 1,
      signal: new AbortController().signal,
    });
    await writeFile(join(worktree.workDir, 'b.txt'), 'b\n');
    const outcome = await finishAgentWorktree(worktree, 'item');
    expect(outcome.branch).toBe('kimi-ts/s0badc0de/1');
    expect(existsSync(marker)).toBe(false);
  });

  it("commits nothing when the run rewrote the worktree's .git, and still removes the worktree", async () => {
    const { repo, home } = await personRepo();
    const other = join(root, 'other');
    await mkdir(other);
    git(other, 'init', '-q');
    const worktree = await addAgentWorktree({
      workDir: repo,
      worktreesDir: home,
      ownerId: 'sfeed',
      index: 1,
      signal: new AbortController().signal,
    });
    await writeFile(join(worktree.path, 'x.txt'), 'x\n');
    await writeFile(join(worktree.path, '.git'), `gitdir: ${join(other, '.git')}\n`);
    await expect(finishAgentWorktree(worktree, 'item')).rejects.toThrow(WorktreeTamperedError);
    expect(existsSync(worktree.path)).toBe(false);
    expect(git(other, 'log', '--oneline', '--all')).toBe('');
    expect(git(repo, 'worktree', 'list').trim().split('\n')).toHaveLength(1);
    expect(git(repo, 'branch', '--list', 'kimi-ts/*').trim()).toBe('');
  });

  it('recovers what a killed run left: committed on its branch, the worktree removed; strangers left alone', async () => {
    const { repo, home } = await personRepo();
    const before = personState(repo);
    const signal = new AbortController().signal;
    const left = await addAgentWorktree({
      workDir: repo,
      worktreesDir: home,
      ownerId: 'sdead',
      index: 3,
      signal,
    });
    await writeFile(join(left.path, 'half-done.txt'), 'half\n');
    const stranger = join(home, 'not-ours');
    await mkdir(stranger);
    await writeFile(join(stranger, '.git'), `gitdir: ${join(repo, '.git')}\n`);
    expect(await recoverLeftWorktrees(home)).toEqual(['kimi-ts/sdead/3']);
    expect(existsSync(left.path)).toBe(false);
    expect(existsSync(stranger)).toBe(true);
    expect(git(repo, 'show', 'kimi-ts/sdead/3:half-done.txt')).toBe('half\n');
    expect(personState(repo)).toEqual(before);
    expect(await recoverLeftWorktrees(join(root, 'nowhere'))).toEqual([]);
  });

  it('refuses a folder outside any git repository with a clear error', async () => {
    root = await realpath(await mkdtemp(join(tmpdir(), 'kimi-ts-worktree-')));
    await expect(
      addAgentWorktree({
        workDir: root,
        worktreesDir: join(root, 'wt'),
        ownerId: 's1',
        index: 1,
        signal: new AbortController().signal,
      }),
    ).rejects.toThrow(WorktreeUnavailableError);
  });

  it('names branches only from the ids kimi-ts made', () => {
    expect(() => worktreeBranch('../x', 1)).toThrow();
    expect(() => worktreeBranch('s1;rm -rf', 1)).toThrow();
    expect(worktreeBranch('sabc', 3)).toBe('kimi-ts/sabc/3');
  });
});
