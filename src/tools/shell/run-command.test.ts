import { readdirSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
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

  it('spawns bwrap itself with the seccomp program on descriptor 3: UNIX sockets refused, nothing else open', async () => {
    const root = await mkdtemp(join(tmpdir(), 'kimi-ts-run-command-'));
    const workDir = join(root, 'work');
    await mkdir(workDir);
    const socketPath = join(workDir, 'agent.sock');
    const unix = createServer((socket) => socket.end('secret over unix\n'));
    await new Promise<void>((resolve) => unix.listen(socketPath, resolve));
    try {
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
      const launch = await state.sandbox.launch(workDir);
      expect(launch.argv[0]).toMatch(/\/bwrap$/);
      const connect = `python3 -c "import socket; s=socket.socket(socket.AF_UNIX); s.connect('${socketPath}'); print(s.recv(100).decode())"`;
      const runLaunched = async (command: string) => {
        let output = '';
        const outcome = await runCommand({
          bashPath: '/bin/bash',
          command,
          cwd: workDir,
          env: { PATH: process.env.PATH ?? '' },
          sandboxLaunch: launch,
          timeoutMs: 10_000,
          killGraceMs: 500,
          signal: new AbortController().signal,
          onOutput: (text) => {
            output += text;
          },
        });
        return { outcome, output };
      };
      // Outside the sandbox the socket answers: the check below can fail.
      let outside = '';
      await run(connect, (text) => {
        outside += text;
      });
      expect(outside).toContain('secret over unix');
      const refused = await runLaunched(connect);
      expect(refused.output).not.toContain('secret over unix');
      expect(refused.output).toContain('Operation not permitted');
      // bwrap read the program and closed it: the command does not hold the program's file.
      const fds = await runLaunched('for fd in /proc/$$/fd/*; do readlink "$fd"; done; true');
      expect(fds.outcome).toEqual({ kind: 'exited', exitCode: 0, leftRunning: false });
      expect(fds.output).toContain('/dev/null');
      expect(fds.output).not.toContain(launch.fd3File ?? 'no program');
      state.sandbox.dispose();
    } finally {
      await new Promise((resolve) => unix.close(resolve));
      await rm(root, { recursive: true, force: true });
    }
  });
});
