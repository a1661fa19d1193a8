import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { applyRestore } from './apply-restore.js';
import { CheckpointStore } from './checkpoint-store.js';
import { runGit } from './git-runner.js';
import { planRestore } from './restore-plan.js';

let root: string;

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'kimi-ts-crafted-'));
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('a crafted checkpoint in the store', () => {
  it('with `..` in its paths never writes outside the work dir', async () => {
    const work = join(root, 'deep', 'work');
    await mkdir(work, { recursive: true });
    await writeFile(join(work, 'a.txt'), 'a');
    const store = await CheckpointStore.open({ home: join(root, 'home'), sessionId: 's', roots: [work] });
    const now = await store.record('now');
    const git = (args: string[], input?: string) =>
      runGit(args, { gitDir: store.gitDir, input }).then((r) => r.stdout.toString('utf8').trim());
    // git mktree accepts a `..` entry: a tree 0/../../escape.txt and 0/../sibling.txt.
    const blob = await git(['hash-object', '-w', '--stdin'], 'escaped\n');
    const inner = await git(
      ['mktree'],
      `100644 blob ${blob}\tescape.txt\n100644 blob ${blob}\tsibling.txt\n`,
    );
    const up = await git(['mktree'], `040000 tree ${inner}\t..\n`);
    const rootTree = await git(['mktree'], `040000 tree ${up}\t..\n100644 blob ${blob}\tinside.txt\n`);
    const top = await git(['mktree'], `040000 tree ${rootTree}\t0\n`);
    const crafted = await git(['commit-tree', top, '-m', '{}']);
    await git(['update-ref', 'refs/kimi-ts/s/999999', crafted]);

    const plan = await planRestore(store.gitDir, now.checkpoint.id, crafted);
    expect(plan.some((c) => c.path.includes('..'))).toBe(true);
    const report = await applyRestore(store.gitDir, store.roots, plan);
    expect(report.left.filter((l) => l.change.path.includes('..')).length).toBeGreaterThan(0);
    expect(report.applied.every((c) => !c.path.includes('..'))).toBe(true);
    expect(existsSync(join(root, 'escape.txt'))).toBe(false);
    expect(existsSync(join(root, 'deep', 'escape.txt'))).toBe(false);
    expect(await readdir(join(root, 'deep'))).toEqual(['work']);
  });
});
