import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { lockSession } from '../session-lock.js';
import { workDirKey } from '../work-dir-key.js';
import { CheckpointStore } from './checkpoint-store.js';
import { pruneCheckpoints } from './prune-checkpoints.js';

let root: string;
let home: string;
let work: string;

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'kimi-ts-prune-'));
  home = join(root, 'home');
  work = join(root, 'work');
  await mkdir(work, { recursive: true });
  await writeFile(join(work, 'a.txt'), 'a');
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

const DAY = 86_400_000;

describe('pruneCheckpoints', () => {
  it('removes checkpoints older than the age limit, and a store can record again after', async () => {
    const store = await CheckpointStore.open({ home, sessionId: 's1', roots: [work] });
    await store.record('one');
    await writeFile(join(work, 'a.txt'), 'b');
    await store.record('two');
    const report = await pruneCheckpoints({
      home,
      maxAgeMs: 30 * DAY,
      maxTotalBytes: 1 << 30,
      now: Date.now() + 31 * DAY,
    });
    expect(report.removedCheckpoints).toBe(2);
    expect(await store.list()).toEqual([]);
    const again = await CheckpointStore.open({ home, sessionId: 's2', roots: [work] });
    expect((await again.record('three')).created).toBe(true);
  });

  it('leaves young checkpoints, and the store of an open session, alone; runs at most once an hour', async () => {
    const store = await CheckpointStore.open({ home, sessionId: 'open1', roots: [work] });
    await store.record('one');
    const sessionDir = join(home, 'sessions', workDirKey(work), 'open1');
    await mkdir(sessionDir, { recursive: true });
    const lock = await lockSession('open1', sessionDir);
    try {
      const later = Date.now() + 365 * DAY;
      const open = await pruneCheckpoints({ home, maxAgeMs: DAY, maxTotalBytes: 1, now: later });
      expect(open).toMatchObject({ removedCheckpoints: 0, skippedOpen: 1 });
      expect(await store.list()).toHaveLength(1);
    } finally {
      await lock.release();
    }
    const soon = await pruneCheckpoints({ home, maxAgeMs: DAY, maxTotalBytes: 1, now: Date.now() + 1000 });
    expect(soon.stores).toBe(0);
    const young = await pruneCheckpoints({ home, maxAgeMs: DAY, maxTotalBytes: 1 << 30, minIntervalMs: 0 });
    expect(young.removedCheckpoints).toBe(0);
    const tooBig = await pruneCheckpoints({ home, maxAgeMs: DAY, maxTotalBytes: 1, minIntervalMs: 0 });
    expect(tooBig.removedCheckpoints).toBe(1);
  });

  it('leaves a store alone while a session of its work dir is open that has no checkpoint yet', async () => {
    const old = await CheckpointStore.open({ home, sessionId: 'old', roots: [work] });
    await old.record('one');
    const sessionDir = join(home, 'sessions', workDirKey(work), 'fresh');
    await mkdir(sessionDir, { recursive: true });
    const lock = await lockSession('fresh', sessionDir);
    try {
      const report = await pruneCheckpoints({ home, maxAgeMs: 0, maxTotalBytes: 1, now: Date.now() + DAY });
      expect(report).toMatchObject({ removedCheckpoints: 0, skippedOpen: 1 });
    } finally {
      await lock.release();
    }
  });
  it("skips the store of an open session without starting git (a session's own, first store)", async () => {
    const store = await CheckpointStore.open({ home, sessionId: 'open1', roots: [work] });
    await store.record('one');
    const sessionDir = join(home, 'sessions', workDirKey(work), 'open1');
    await mkdir(sessionDir, { recursive: true });
    const lock = await lockSession('open1', sessionDir);
    const bin = join(root, 'bin');
    await mkdir(bin);
    const log = join(root, 'git-runs.log');
    await writeFile(log, '');
    await writeFile(join(bin, 'git'), `#!/bin/sh\necho "$*" >> '${log}'\nexit 1\n`);
    await chmod(join(bin, 'git'), 0o755);
    const savedPath = process.env.PATH;
    process.env.PATH = `${bin}:${savedPath}`;
    try {
      const report = await pruneCheckpoints({ home, maxAgeMs: 0, maxTotalBytes: 1, now: Date.now() + DAY });
      expect(report).toMatchObject({ stores: 1, removedCheckpoints: 0, skippedOpen: 1 });
      expect(await readFile(log, 'utf8')).toBe('');
    } finally {
      process.env.PATH = savedPath;
      await lock.release();
    }
  });
});
