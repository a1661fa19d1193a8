import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { applyRestore } from './apply-restore.js';
import { CheckpointStore } from './checkpoint-store.js';
import { planRestore } from './restore-plan.js';
import { sessionFolderName, sessionIndexFile } from './session-index.js';

let root: string;
let home: string;
let work: string;

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'kimi-ts-session-index-'));
  home = join(root, 'home');
  work = join(root, 'work');
  await mkdir(work, { recursive: true });
  for (let i = 0; i < 50; i++) await writeFile(join(work, `f${i}.txt`), `v${i}\n`);
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

const treeFiles = (gitDir: string, commit: string) =>
  execFileSync('git', ['--git-dir', gitDir, 'ls-tree', '-r', '--name-only', commit], { encoding: 'utf8' })
    .trim()
    .split('\n');

describe('per-session index files', () => {
  it('two sessions of one work dir record at the same time without sharing an index', async () => {
    const a = await CheckpointStore.open({ home, sessionId: 'sa', roots: [work] });
    const b = await CheckpointStore.open({ home, sessionId: 'sb', roots: [work] });
    expect(a.gitDir).toBe(b.gitDir);
    const recordMany = async (store: CheckpointStore, name: string) => {
      const ids: string[] = [];
      for (let i = 0; i < 5; i++) {
        await writeFile(join(work, `${name}-${i}.txt`), `${name} ${i}\n`);
        ids.push((await store.record(`${name} ${i}`)).checkpoint.id);
      }
      return ids;
    };
    const [idsA, idsB] = await Promise.all([recordMany(a, 'a'), recordMany(b, 'b')]);
    expect((await a.list()).map((c) => c.id)).toEqual(idsA);
    expect((await b.list()).map((c) => c.id)).toEqual(idsB);
    // Each checkpoint holds at least its own session's files up to then, and every original one.
    expect(treeFiles(a.gitDir, idsA[4]!)).toEqual(expect.arrayContaining(['0/a-4.txt', '0/f49.txt']));
    expect(treeFiles(b.gitDir, idsB[4]!)).toEqual(expect.arrayContaining(['0/b-4.txt', '0/f0.txt']));
    expect(existsSync(sessionIndexFile(a.gitDir, 'sa', work))).toBe(true);
    expect(existsSync(sessionIndexFile(a.gitDir, 'sb', work))).toBe(true);
    expect(existsSync(join(a.gitDir, 'index-0'))).toBe(false);
  });

  it("a new session starts from another session's index and still sees every change since", async () => {
    const first = await CheckpointStore.open({ home, sessionId: 's1', roots: [work] });
    await first.record('one');
    // Same size, changed right after the index was written: only a content check tells it changed.
    await writeFile(join(work, 'f1.txt'), 'w1\n');
    const second = await CheckpointStore.open({ home, sessionId: 's2', roots: [work] });
    const { checkpoint } = await second.record('two');
    const blob = execFileSync('git', ['--git-dir', second.gitDir, 'show', `${checkpoint.id}:0/f1.txt`], {
      encoding: 'utf8',
    });
    expect(blob).toBe('w1\n');
  });

  it('a stale index.lock left by a killed git does not stop the next record of the session', async () => {
    const store = await CheckpointStore.open({ home, sessionId: 's1', roots: [work] });
    const before = await store.record('one');
    const index = sessionIndexFile(store.gitDir, 's1', work);
    await writeFile(`${index}.lock`, '');
    await writeFile(join(work, 'f2.txt'), 'changed\n');
    const reopened = await CheckpointStore.open({ home, sessionId: 's1', roots: [work] });
    const now = await reopened.record('two');
    expect(now.created).toBe(true);
    const plan = await planRestore(reopened.gitDir, now.checkpoint.id, before.checkpoint.id);
    await applyRestore(reopened.gitDir, reopened.roots, plan);
    expect(await readFile(join(work, 'f2.txt'), 'utf8')).toBe('v2\n');
  });

  it('names a strange session id by a hash, never as a path', () => {
    expect(sessionFolderName('abc-123_x')).toBe('abc-123_x');
    expect(sessionFolderName('../../etc')).toMatch(/^h-[0-9a-f]{32}$/);
  });
});
