import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCommandSandbox } from './sandbox.js';

let root: string;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'kimi-ts-sandbox-reaped-'));
  await mkdir(join(root, 'work'));
  await mkdir(join(root, 'home', '.kimi-ts'), { recursive: true });
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

/** The pids below `pid` now (children, theirs, ...), read from /proc. */
function descendants(pid: number): number[] {
  let children: number[];
  try {
    children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8')
      .trim()
      .split(/\s+/)
      .filter(Boolean)
      .map(Number);
  } catch {
    return [];
  }
  return children.flatMap((child) => [child, ...descendants(child)]);
}

describe('a sandboxed command', () => {
  it('leaves no process behind, not even a zombie for the machine’s init to reap', async () => {
    const state = createCommandSandbox(
      { mode: 'workspace-write', network: false },
      {
        workDir: join(root, 'work'),
        additionalDirs: () => [],
        userHome: join(root, 'home'),
        kimiHome: join(root, 'home', '.kimi-ts'),
        path: process.env.PATH,
      },
    );
    if (state.kind !== 'on') throw new Error(`expected a sandbox, got ${state.kind}`);
    const argv = [
      ...(await state.sandbox.prefix(join(root, 'work'))),
      '/bin/bash',
      '-c',
      'echo started; read line',
    ];
    const [file, ...args] = argv as [string, ...string[]];
    const child = spawn(file, args, { cwd: join(root, 'work'), stdio: ['pipe', 'pipe', 'inherit'] });
    // Once the command speaks, every process between it and us exists.
    await new Promise<void>((resolve) => child.stdout.once('data', () => resolve()));
    const below = descendants(child.pid!);
    expect(below.length).toBeGreaterThan(0);
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    child.stdin.end('go\n');
    expect(await exited).toBe(0);
    state.sandbox.commandEnded();
    state.sandbox.dispose();
    // The processes between us and the command are gone, reaped by their parents: none is left
    // for PID 1, which in a container often reaps nothing (each would stay a zombie for good).
    for (const pid of below) {
      const stat = existsSync(`/proc/${pid}/stat`) ? readFileSync(`/proc/${pid}/stat`, 'utf8') : '';
      expect(stat, `pid ${pid}`).toBe('');
    }
  });
});
