import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, readFile, rm, stat, symlink, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { applyRestore } from './apply-restore.js';
import { CheckpointStore } from './checkpoint-store.js';
import { planRestore } from './restore-plan.js';

let root: string;
let home: string;
let work: string;

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'kimi-ts-checkpoints-'));
  home = join(root, 'home');
  work = join(root, 'work');
  await mkdir(work, { recursive: true });
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

const git = (...args: string[]) =>
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], {
    cwd: work,
    encoding: 'utf8',
  });

async function rewindTo(store: CheckpointStore, targetId: string, since?: string) {
  const now = await store.record('before rewind');
  const plan = await planRestore(store.gitDir, now.checkpoint.id, targetId, { since });
  return { plan, report: await applyRestore(store.gitDir, store.roots, plan) };
}

describe('CheckpointStore', () => {
  it('brings back bytes and modes, removes created files and restores deleted ones', async () => {
    await writeFile(join(work, 'a.txt'), 'alpha\n');
    await writeFile(join(work, 'run.sh'), '#!/bin/sh\necho hi\n');
    await chmod(join(work, 'run.sh'), 0o755);
    await mkdir(join(work, 'src'));
    await writeFile(join(work, 'src', 'keep.bin'), Buffer.from([0, 1, 2, 255, 0]));
    const store = await CheckpointStore.open({ home, sessionId: 's1', roots: [work] });
    const before = await store.record('turn 1');
    expect(before.created).toBe(true);

    await writeFile(join(work, 'a.txt'), 'changed\n');
    await chmod(join(work, 'run.sh'), 0o644);
    await unlink(join(work, 'src', 'keep.bin'));
    await mkdir(join(work, 'new-dir', 'deep'), { recursive: true });
    await writeFile(join(work, 'new-dir', 'deep', 'created.txt'), 'new');

    const { report } = await rewindTo(store, before.checkpoint.id);
    expect(report.left).toEqual([]);
    expect(await readFile(join(work, 'a.txt'), 'utf8')).toBe('alpha\n');
    expect((await stat(join(work, 'run.sh'))).mode & 0o777).toBe(0o755);
    expect([...(await readFile(join(work, 'src', 'keep.bin')))]).toEqual([0, 1, 2, 255, 0]);
    expect(existsSync(join(work, 'new-dir'))).toBe(false);
  });

  it('makes no checkpoint when nothing changed', async () => {
    await writeFile(join(work, 'a.txt'), 'alpha\n');
    const store = await CheckpointStore.open({ home, sessionId: 's1', roots: [work] });
    const first = await store.record('turn 1');
    const second = await store.record('turn 2');
    expect(second.created).toBe(false);
    expect(second.checkpoint.id).toBe(first.checkpoint.id);
    expect((await store.list()).map((c) => c.seq)).toEqual([1]);
  });

  it("never touches the user's repository: status, stash and branches stay as they were", async () => {
    git('init', '-q', '-b', 'main');
    await writeFile(join(work, 'tracked.txt'), 'v1\n');
    git('add', 'tracked.txt');
    git('commit', '-q', '-m', 'one');
    await writeFile(join(work, 'tracked.txt'), 'stashed change\n');
    git('stash', '-q');
    await writeFile(join(work, 'tracked.txt'), 'uncommitted\n');
    await writeFile(join(work, 'untracked.txt'), 'u\n');
    const status = git('status', '--porcelain');
    const stash = git('stash', 'list');
    const refs = git('for-each-ref');

    const store = await CheckpointStore.open({ home, sessionId: 's1', roots: [work] });
    const before = await store.record('turn 1');
    await writeFile(join(work, 'tracked.txt'), 'the agent wrote this\n');
    await rewindTo(store, before.checkpoint.id);

    expect(await readFile(join(work, 'tracked.txt'), 'utf8')).toBe('uncommitted\n');
    expect(git('status', '--porcelain')).toBe(status);
    expect(git('stash', 'list')).toBe(stash);
    expect(git('for-each-ref')).toBe(refs);
    expect(existsSync(join(work, '.git', 'kimi-ts'))).toBe(false);
  });

  it('respects .gitignore and never records secrets or files over the cap', async () => {
    await writeFile(join(work, '.gitignore'), 'build/\n');
    await mkdir(join(work, 'build'));
    await writeFile(join(work, 'build', 'out.js'), 'built');
    await writeFile(join(work, '.env'), 'API_KEY=sk-secret');
    await writeFile(join(work, 'big.bin'), Buffer.alloc(2048, 1));
    await writeFile(join(work, 'small.txt'), 'small');
    const store = await CheckpointStore.open({ home, sessionId: 's1', roots: [work], maxFileBytes: 1024 });
    const { checkpoint } = await store.record('turn 1');
    const listed = execFileSync(
      'git',
      ['--git-dir', store.gitDir, 'ls-tree', '-r', '--name-only', checkpoint.id],
      {
        encoding: 'utf8',
      },
    );
    expect(listed.trim().split('\n').sort()).toEqual(['0/.gitignore', '0/small.txt']);
    expect(checkpoint.skipped).toEqual(
      expect.arrayContaining([
        { root: 0, path: '.env', reason: 'sensitive' },
        { root: 0, path: 'big.bin', reason: 'too_large' },
      ]),
    );
    const objects = execFileSync(
      'git',
      ['--git-dir', store.gitDir, 'cat-file', '--batch-all-objects', '--batch'],
      {
        encoding: 'latin1',
      },
    );
    expect(objects).not.toContain('sk-secret');
  });

  it('reports a file changed by someone else since the session last left it, and keeps it', async () => {
    await writeFile(join(work, 'mine.txt'), 'v1');
    await writeFile(join(work, 'theirs.txt'), 'v1');
    const store = await CheckpointStore.open({ home, sessionId: 's1', roots: [work] });
    const before = await store.record('turn 1');
    await writeFile(join(work, 'mine.txt'), 'agent edit');
    await writeFile(join(work, 'theirs.txt'), 'agent edit');
    const afterTurn = await store.record('after turn 1');
    await writeFile(join(work, 'theirs.txt'), 'the user typed this');

    const { report } = await rewindTo(store, before.checkpoint.id, afterTurn.checkpoint.id);
    expect(await readFile(join(work, 'mine.txt'), 'utf8')).toBe('v1');
    expect(await readFile(join(work, 'theirs.txt'), 'utf8')).toBe('the user typed this');
    expect(report.left.map((l) => [l.change.path, l.reason])).toEqual([
      ['theirs.txt', 'changed since by someone else'],
    ]);
  });

  it('does not write through a symlink that now leads outside the work dir', async () => {
    const outside = join(root, 'outside');
    await mkdir(outside);
    await mkdir(join(work, 'dir'));
    await writeFile(join(work, 'dir', 'f.txt'), 'v1');
    const store = await CheckpointStore.open({ home, sessionId: 's1', roots: [work] });
    const before = await store.record('turn 1');
    await rm(join(work, 'dir'), { recursive: true });
    await symlink(outside, join(work, 'dir'));

    const { report } = await rewindTo(store, before.checkpoint.id);
    expect(existsSync(join(outside, 'f.txt'))).toBe(false);
    expect(report.applied.some((c) => c.path === 'dir')).toBe(true);
  });

  it('restores symlinks as symlinks and records add-dirs as their own roots', async () => {
    const extra = join(root, 'extra');
    await mkdir(extra);
    await writeFile(join(extra, 'notes.md'), 'notes v1');
    await writeFile(join(work, 'target.txt'), 't');
    await symlink('target.txt', join(work, 'link'));
    const store = await CheckpointStore.open({ home, sessionId: 's1', roots: [work, extra] });
    const before = await store.record('turn 1');
    await unlink(join(work, 'link'));
    await writeFile(join(extra, 'notes.md'), 'notes v2');

    await rewindTo(store, before.checkpoint.id);
    expect(await readFile(join(work, 'link'), 'utf8')).toBe('t');
    expect((await import('node:fs')).lstatSync(join(work, 'link')).isSymbolicLink()).toBe(true);
    expect(await readFile(join(extra, 'notes.md'), 'utf8')).toBe('notes v1');
  });
});
