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
    ['a killed owner not yet reaped (a zombie, as under a terminal that never reaps it)', zombieOwner],
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

/**
 * The owner record of a zombie: a child that ended, whose parent never reaps it. The parent is perl
 * (Debian's perl-base is always there), which reaps nothing unless asked; a shell parent could reap
 * the child itself before it exec'd `sleep`, under load.
 */
async function zombieOwner(): Promise<{ pid: number; started: string }> {
  const parent = spawn(
    'perl',
    ['-e', '$| = 1; my $pid = fork(); exit 0 if $pid == 0; print "$pid\n"; sleep 30'],
    {
      stdio: ['ignore', 'pipe', 'ignore'],
    },
  );
  zombieParents.push(parent);
  const pid = Number(
    await new Promise<string>((resolve) => parent.stdout.once('data', (d: Buffer) => resolve(String(d)))),
  );
  // Wait on its state: the child ends at once and stays a zombie while `sleep` runs.
  for (;;) {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (fields[0] === 'Z') return { pid, started: fields[19] as string };
    await new Promise((resolve) => setImmediate(resolve));
  }
}
const zombieParents: ReturnType<typeof spawn>[] = [];
afterEach(() => {
  for (const parent of zombieParents.splice(0)) parent.kill('SIGKILL');
});
