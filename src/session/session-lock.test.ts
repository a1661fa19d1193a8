import { spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { lockSession, SESSION_LOCK_FILE, SessionLockedError } from './session-lock.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'kimi-ts-lock-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('lockSession', () => {
  it('writes the owner pid, refuses a second holder and frees the folder on release', async () => {
    const lock = await lockSession('s1', dir);
    const owner = JSON.parse(await readFile(join(dir, SESSION_LOCK_FILE), 'utf8')) as { pid: number };
    expect(owner.pid).toBe(process.pid);
    await expect(lockSession('s1', dir)).rejects.toThrow(SessionLockedError);
    await expect(lockSession('s1', dir)).rejects.toThrow('Session s1 is already open in this process.');
    await lock.release();
    await lock.release();
    expect(await readdir(dir)).toEqual([]);
    await (await lockSession('s1', dir)).release();
  });

  it('respects a live owner and names its pid', async () => {
    await writeFile(join(dir, SESSION_LOCK_FILE), JSON.stringify({ pid: process.ppid }));
    const error = await lockSession('s2', dir).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SessionLockedError);
    expect((error as SessionLockedError).ownerPid).toBe(process.ppid);
    expect((error as Error).message).toContain(`pid ${process.ppid}`);
  });

  it.each([
    ['a dead pid', async () => ({ pid: await exitedPid() })],
    ['a recycled pid (another start time)', async () => ({ pid: process.ppid, started: '1' })],
    ['an unreadable owner', async () => 'not json'],
  ])('takes over a stale lock: %s', async (_name, owner) => {
    const value = await owner();
    await writeFile(join(dir, SESSION_LOCK_FILE), typeof value === 'string' ? value : JSON.stringify(value));
    const lock = await lockSession('s3', dir);
    const now = JSON.parse(await readFile(join(dir, SESSION_LOCK_FILE), 'utf8')) as { pid: number };
    expect(now.pid).toBe(process.pid);
    await lock.release();
  });
});

async function exitedPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '0']);
  await new Promise((resolve) => child.once('exit', resolve));
  return child.pid as number;
}
