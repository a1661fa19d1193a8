import { describe, expect, it } from 'vitest';
import { LINE_PIECE_CHARS, runCommand } from './run-command.js';

function run(command: string, onOutput: (text: string) => void, timeoutMs = 10_000) {
  return runCommand({
    bashPath: '/bin/bash',
    command,
    cwd: process.cwd(),
    env: { PATH: process.env.PATH ?? '' },
    timeoutMs,
    killGraceMs: 500,
    signal: new AbortController().signal,
    onOutput,
  });
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
});
