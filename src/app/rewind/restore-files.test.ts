import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CheckpointStore } from '../../session/checkpoints/checkpoint-store.js';
import { runGit } from '../../session/checkpoints/git-runner.js';
import { sessionIndexFile } from '../../session/checkpoints/session-index.js';
import { applyFilesPlan, planFilesRestore } from './restore-files.js';

let root: string;
let home: string;
let work: string;

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'kimi-ts-restore-files-'));
  home = join(root, 'home');
  work = join(root, 'work');
  await mkdir(join(work, 'lib'), { recursive: true });
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('planFilesRestore and nested repositories', () => {
  it('plans their files like any other now; a checkpoint from before that holds one as a commit names it as not restorable', async () => {
    await writeFile(join(work, 'top.txt'), 'top-1\n');
    await writeFile(join(work, 'lib', 'inner.txt'), 'inner-1\n');
    execFileSync('git', ['init', '-q'], { cwd: join(work, 'lib') });
    const old = await CheckpointStore.open({ home, sessionId: 's0', roots: [work] });
    await old.record('turn 1');
    // What an older kimi-ts recorded: lib as a gitlink (its commit), not its files.
    const git = { gitDir: old.gitDir, workTree: work, indexFile: sessionIndexFile(old.gitDir, 's0', work) };
    execFileSync(
      'git',
      ['-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-q', '--allow-empty', '-m', 'x'],
      {
        cwd: join(work, 'lib'),
      },
    );
    await runGit(['rm', '-r', '-q', '--cached', 'lib'], git);
    await runGit(['add', 'lib'], git);
    await writeFile(join(work, 'top.txt'), 'top-2\n');
    const olderCheckpoint = (await old.record('turn 2')).checkpoint;

    const store = await CheckpointStore.open({ home, sessionId: 's1', roots: [work] });
    const target = (await store.record('turn 1')).checkpoint;
    await writeFile(join(work, 'lib', 'inner.txt'), 'inner-2\n');
    await writeFile(join(work, 'top.txt'), 'top-3\n');
    const now = (await store.record('turn 2')).checkpoint;

    const plan = await planFilesRestore(store, now, target.id, []);
    expect(plan.skipped).toEqual([]);
    expect(plan.changes.map((change) => change.path).sort()).toEqual(['lib/inner.txt', 'top.txt']);

    const toOlder = await planFilesRestore(store, now, olderCheckpoint.id, []);
    expect(toOlder.changes.map((change) => change.path)).toEqual(['top.txt']);
    expect(toOlder.skipped).toEqual([
      { path: 'lib/', reason: expect.stringContaining('held by an older checkpoint as its commit') },
    ]);

    const report = await applyFilesPlan(plan, false);
    expect(report.left).toEqual([]);
    expect(await readFile(join(work, 'lib', 'inner.txt'), 'utf8')).toBe('inner-1\n');
    expect(await readFile(join(work, 'top.txt'), 'utf8')).toBe('top-2\n');
  });
});
