import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { lockSession, SESSION_LOCK_FILE, SessionLockedError } from './session-lock.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'kimi-ts-lock-lease-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

const lockFile = () => join(dir, SESSION_LOCK_FILE);

it("a fleet worker replaces another worker's live lease lock; the first one's release leaves it", async () => {
  // A paused worker (alive: our parent's pid) held the session for its turn job.
  await writeFile(lockFile(), JSON.stringify({ pid: process.ppid, host: '', lease: 'theirs' }));
  const mine = await lockSession('s1', dir, { leased: true });
  const owner = JSON.parse(await readFile(lockFile(), 'utf8')) as { pid: number; lease: string };
  expect(owner.pid).toBe(process.pid);
  expect(owner.lease).not.toBe('theirs');
  // Another turn job of this same process takes it over in turn: the earlier release does not free it.
  const next = await lockSession('s1', dir, { leased: true });
  await mine.release();
  expect(await readdir(dir)).toEqual([SESSION_LOCK_FILE]);
  await next.release();
  expect(await readdir(dir)).toEqual([]);
});

it("neither side replaces the other: a worker and an interactive process's lock", async () => {
  await writeFile(lockFile(), JSON.stringify({ pid: process.ppid, host: '' }));
  await expect(lockSession('s2', dir, { leased: true })).rejects.toThrow(SessionLockedError);
  await rm(lockFile());
  await writeFile(lockFile(), JSON.stringify({ pid: process.ppid, host: '', lease: 'worker' }));
  await expect(lockSession('s2', dir)).rejects.toThrow(SessionLockedError);
});
