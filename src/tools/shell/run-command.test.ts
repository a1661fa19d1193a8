import { readdirSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { createCommandSandbox } from '../../policy/sandbox.js';
import { LINE_PIECE_CHARS, runCommand } from './run-command.js';

function run(
  command: string,
  onOutput: (text: string) => void,
  timeoutMs = 10_000,
  sandboxPrefix?: readonly string[],
  cwd = process.cwd(),
) {
  return runCommand({
    bashPath: '/bin/bash',
    command,
    cwd,
    env: { PATH: process.env.PATH ?? '' },
    sandboxPrefix,
    timeoutMs,
    killGraceMs: 500,
    signal: new AbortController().signal,
    onOutput,
  });
}

/** Host pids whose command line is exactly `argv` (NUL-separated in /proc/<pid>/cmdline). */
function pidsRunning(argv: readonly string[]): number[] {
  const wanted = `${argv.join('\0')}\0`;
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, 'utf8') === wanted;
      } catch {
        return false;
      }
    })
    .map(Number);
}

describe('runCommand', () => {
  it('passes a very long line on in bounded pieces', async () => {
    const pieces: number[] = [];
    const outcome = await run('head -c 1000000 /dev/zero | tr "\\0" x; echo; echo end', (text) =>
      pieces.push(text.length),
    );
    expect(outcome).toEqual({ kind: 'exited', exitCode: 0, leftRunning: false });
    expect(Math.max(...pieces)).toBeLessThanOrEqual(LINE_PIECE_CHARS + 1);
    expect(pieces.reduce((a, b) => a + b, 0)).toBe(1_000_000 + 1 + 4);
  });

  it('returns when bash exits although a background child holds the pipe, and says so', async () => {
    let output = '';
    const outcome = await run(
      'sleep 30 & echo $!; echo started',
      (text) => {
        output += text;
      },
      5_000,
    );
    expect(outcome).toEqual({ kind: 'exited', exitCode: 0, leftRunning: true });
    const [pid, said] = output.trim().split('\n');
    expect(said).toBe('started');
    process.kill(Number(pid), 'SIGKILL');
  });

  it('behind the sandbox, nothing outlives the command (setsid included): not left running, and gone', async () => {
    const root = await mkdtemp(join(tmpdir(), 'kimi-ts-run-command-'));
    try {
      const workDir = join(root, 'work');
      await mkdir(workDir);
      const state = createCommandSandbox(
        { mode: 'workspace-write', network: false },
        {
          workDir,
          additionalDirs: () => [],
          userHome: root,
          kimiHome: join(root, 'kimi'),
          path: process.env.PATH,
        },
      );
      if (state.kind !== 'on') throw new Error(`expected the sandbox, got ${state.kind}`);
      // Unusual durations, so these sleeps are told apart from any other process on the machine.
      const plain = ['sleep', '31.4711'];
      const detached = ['sleep', '31.4712'];
      let output = '';
      const outcome = await run(
        `${plain.join(' ')} & setsid ${detached.join(' ')} & echo started`,
        (text) => {
          output += text;
        },
        5_000,
        await state.sandbox.prefix(workDir),
        workDir,
      );
      state.sandbox.dispose();
      expect(output.trim()).toBe('started');
      expect(outcome).toEqual({ kind: 'exited', exitCode: 0, leftRunning: false });
      // The PID namespace is torn down as its init ends; the kernel's SIGKILLs land at once.
      const deadline = performance.now() + 5_000;
      while (pidsRunning(plain).length + pidsRunning(detached).length > 0 && performance.now() < deadline)
        await delay(10);
      expect([...pidsRunning(plain), ...pidsRunning(detached)]).toEqual([]);
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });
});
