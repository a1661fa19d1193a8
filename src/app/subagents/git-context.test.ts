import { execFileSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { gitContext } from './git-context.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'kimi-ts-git-context-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const git = (...args: string[]) =>
  execFileSync('git', ['-c', 'user.name=Test', '-c', 'user.email=t@example.com', ...args], {
    cwd: dir,
    stdio: 'pipe',
  });

describe('gitContext', () => {
  it('is null outside a git work tree', async () => {
    expect(await gitContext(dir, process.env)).toBeNull();
  });

  it('names the branch, the uncommitted files (at most 20) and the last commits', async () => {
    git('init', '-q', '-b', 'feature/x');
    await writeFile(join(dir, 'a.txt'), 'a');
    git('add', '.');
    git('commit', '-q', '-m', 'first commit');
    await writeFile(join(dir, 'a.txt'), 'changed');
    for (let i = 0; i < 22; i++) await writeFile(join(dir, `new-${String(i).padStart(2, '0')}.txt`), 'x');

    const block = await gitContext(dir, process.env);
    expect(block).toMatch(
      /^<git-context>\nBranch: feature\/x\nUncommitted changes \(23 files\):\n M a\.txt\n/,
    );
    expect(block).toContain('?? new-18.txt\n... and 3 more\nRecent commits:\n');
    expect(block).not.toContain('new-19.txt');
    expect(block).toMatch(/[0-9a-f]{7,} first commit\n<\/git-context>$/);
  });

  it('says when the working tree is clean, and names a detached HEAD or a branch with no commits', async () => {
    git('init', '-q', '-b', 'main');
    expect(await gitContext(dir, process.env)).toBe(
      '<git-context>\nBranch: main\nWorking tree: clean\n</git-context>',
    );
    await writeFile(join(dir, 'a.txt'), 'a');
    git('add', '.');
    git('commit', '-q', '-m', 'only commit');
    expect(await gitContext(dir, process.env)).toContain('Branch: main\nWorking tree: clean\n');
    git('checkout', '-q', '--detach');
    expect(await gitContext(dir, process.env)).toMatch(/Branch: none \(detached at [0-9a-f]{7,}\)/);
  });
});

describe('gitContext: the git it runs and what that git gets', () => {
  it("never runs the work tree's own `git` (a relative PATH entry), and gives git the session's child environment only", async () => {
    git('init', '-q', '-b', 'main');
    const marker = join(dir, 'ran-the-repository-git');
    await writeFile(join(dir, 'git'), `#!/bin/sh\ntouch '${marker}'\n`, { mode: 0o755 });
    const bin = await mkdtemp(join(tmpdir(), 'kimi-ts-git-context-bin-'));
    try {
      // A git on PATH (absolute) that shows what it was given, then runs the real one.
      const realGit = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim();
      const seen = join(bin, 'seen-env');
      await writeFile(join(bin, 'git'), `#!/bin/sh\nenv > '${seen}'\nexec '${realGit}' "$@"\n`, {
        mode: 0o755,
      });
      const env = { PATH: `.:${bin}:${process.env.PATH ?? ''}`, HOME: process.env.HOME };
      const block = await gitContext(dir, env);
      expect(block).toContain('Branch: main');
      expect((await import('node:fs')).existsSync(marker)).toBe(false);
      // The agent's own environment (its API keys) is not git's.
      const { readFile } = await import('node:fs/promises');
      expect(await readFile(seen, 'utf8')).not.toMatch(/^KIMI_|_API_KEY=/m);
    } finally {
      await rm(bin, { recursive: true, force: true });
    }
  });
});

describe("gitContext: the repository's own config runs nothing", () => {
  it('no fsmonitor, no filter command (a repository a background command made and the sandbox has not cleaned yet)', async () => {
    git('init', '-q', '-b', 'main');
    await writeFile(join(dir, '.gitattributes'), '* filter=x\n');
    await writeFile(join(dir, 'a.txt'), 'a');
    git('add', '.');
    git('commit', '-q', '-m', 'first');
    const fsmonitor = join(dir, '..', `${join(dir).split('/').pop()}-fsmonitor-ran`);
    const filter = join(dir, '..', `${join(dir).split('/').pop()}-filter-ran`);
    git('config', 'core.fsmonitor', `touch '${fsmonitor}'; false`);
    git('config', 'filter.x.clean', `touch '${filter}'; cat`);
    git('config', 'filter.x.process', `touch '${filter}'`);
    git('config', 'log.showSignature', 'true');
    await writeFile(join(dir, 'a.txt'), 'changed');
    const { existsSync } = await import('node:fs');
    try {
      const block = await gitContext(dir, process.env);
      expect(existsSync(fsmonitor), 'core.fsmonitor ran').toBe(false);
      expect(existsSync(filter), 'the clean filter ran').toBe(false);
      expect(block).toContain('Uncommitted changes (1 file):\n M a.txt\n');
      expect(block).toMatch(/[0-9a-f]{7,} first\n<\/git-context>$/);
    } finally {
      await rm(fsmonitor, { force: true });
      await rm(filter, { force: true });
    }
  });
});
