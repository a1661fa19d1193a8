import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { addAgentWorktree, finishAgentWorktree } from './agent-worktree.js';

/**
 * A hostile repository's config reaches git through conditional includes: a section that is in
 * force only on the agent's branch, or only in a linked worktree, is not in force where kimi-ts
 * reads the config's driver names (the person's checkout), yet is when git checks out the worktree.
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

async function hostileRepo(condition: string): Promise<{ repo: string; home: string; marker: string }> {
  root = await realpath(await mkdtemp(join(tmpdir(), 'kimi-ts-worktree-hostile-')));
  const repo = join(root, 'repo');
  const home = join(root, 'home', 'worktrees');
  const marker = join(root, 'ran');
  const evil = join(root, 'evil.sh');
  await writeFile(evil, `#!/bin/sh\necho "$0 $*" >> '${marker}'\ncat\n`, { mode: 0o755 });
  await mkdir(repo);
  git(repo, 'init', '-q', '-b', 'main');
  git(repo, 'config', 'user.name', 'Person');
  git(repo, 'config', 'user.email', 'person@example.invalid');
  await writeFile(join(repo, '.gitattributes'), '* filter=evil diff=evil merge=evil\n');
  await writeFile(join(repo, 'a.txt'), 'one\n');
  git(repo, 'add', '-A');
  git(repo, 'commit', '-q', '-m', 'first');
  const included = join(root, 'outside.cfg');
  await writeFile(
    included,
    [
      '[filter "evil"]',
      `\tsmudge = ${evil}`,
      `\tclean = ${evil}`,
      `\tprocess = ${evil}`,
      '\trequired = true',
      '[diff "evil"]',
      `\ttextconv = ${evil}`,
      `\tcommand = ${evil}`,
      '[merge "evil"]',
      `\tdriver = ${evil} %O %A %B`,
      '',
    ].join('\n'),
  );
  git(repo, 'config', `includeIf.${condition}.path`, included);
  return { repo, home, marker };
}

describe('an isolated subagent worktree in a repository with conditional includes', () => {
  it.each([['onbranch:kimi-ts/**'], ['gitdir:**/worktrees/**']])(
    'runs no filter, textconv or driver included under %s',
    async (condition) => {
      const { repo, home, marker } = await hostileRepo(condition);
      const worktree = await addAgentWorktree({
        workDir: repo,
        worktreesDir: home,
        ownerId: 'sinclude',
        index: 0,
        signal: new AbortController().signal,
      });
      await writeFile(join(worktree.workDir, 'b.txt'), 'b\n');
      await writeFile(join(worktree.workDir, 'a.txt'), 'two\n');
      const outcome = await finishAgentWorktree(worktree, 'item');
      expect(outcome.branch).toBe('kimi-ts/sinclude/0');
      expect(existsSync(marker)).toBe(false);
    },
  );

  it('a branch of that name already there (an earlier run of a resumed agent, the person) is refused and kept', async () => {
    const { repo, home } = await hostileRepo('onbranch:none/**');
    git(repo, 'checkout', '-q', '-b', 'kimi-ts/sagain/1');
    await writeFile(join(repo, 'earlier.txt'), 'work of the first run\n');
    git(repo, 'add', '-A');
    git(repo, 'commit', '-q', '-m', 'earlier run');
    const earlier = git(repo, 'rev-parse', 'HEAD').trim();
    git(repo, 'checkout', '-q', 'main');
    await expect(
      addAgentWorktree({
        workDir: repo,
        worktreesDir: home,
        ownerId: 'sagain',
        index: 1,
        signal: new AbortController().signal,
      }),
    ).rejects.toThrow();
    expect(git(repo, 'rev-parse', 'refs/heads/kimi-ts/sagain/1').trim()).toBe(earlier);
  });

  it('a folder already at the worktree path is refused and left as it is', async () => {
    const { repo, home } = await hostileRepo('onbranch:none/**');
    await mkdir(join(home, 'sthere-2'), { recursive: true });
    await writeFile(join(home, 'sthere-2', 'keep.txt'), 'not ours\n');
    await expect(
      addAgentWorktree({
        workDir: repo,
        worktreesDir: home,
        ownerId: 'sthere',
        index: 2,
        signal: new AbortController().signal,
      }),
    ).rejects.toThrow(/already there/);
    expect(existsSync(join(home, 'sthere-2', 'keep.txt'))).toBe(true);
    expect(git(repo, 'branch', '--list', 'kimi-ts/*').trim()).toBe('');
  });
});
