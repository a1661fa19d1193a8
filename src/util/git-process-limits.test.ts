import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { runGitProcess } from './git-process.js';

/**
 * A git that never ends (it waits on a FIFO a command left in the tree) or prints without end (a
 * tree a command filled with millions of names): stopped at its limit, with a failure that says so,
 * and no process left. A stand-in `git` on PATH plays both (outside the work tree, so it is used).
 */

let root: string;
let bin: string;
let work: string;

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'kimi-ts-git-limits-'));
  bin = join(root, 'bin');
  work = join(root, 'work');
  await mkdir(bin);
  await mkdir(work);
});
afterEach(() => rm(root, { recursive: true, force: true }));

async function fakeGit(body: string): Promise<void> {
  await writeFile(join(bin, 'git'), `#!/bin/sh\n${body}\n`, { mode: 0o755 });
}

const run = (extra: { timeoutMs?: number; maxStdoutBytes?: number }) =>
  runGitProcess(['ls-files', '-z'], {
    cwd: work,
    env: { PATH: `${bin}:/usr/bin:/bin`, HOME: root },
    settings: [],
    failure: (message) => new Error(message),
    missing: 'git is not installed.',
    ...extra,
  });

it('stops a git that does not finish in time, and says so', async () => {
  await fakeGit('exec sleep 30');
  await expect(run({ timeoutMs: 200 })).rejects.toThrow(
    'git ls-files did not finish in 200 ms; it was stopped',
  );
});

it('stops a git that prints more than its limit, and says so', async () => {
  await fakeGit('exec yes a-long-path-name-of-a-file-in-a-filled-tree');
  await expect(run({ maxStdoutBytes: 1024 * 1024 })).rejects.toThrow(
    'git ls-files printed more than 1048576 bytes; it was stopped',
  );
});

it('gives the output of a git within its limits', async () => {
  await fakeGit("printf 'a\\0b\\0'");
  const result = await run({ timeoutMs: 10_000, maxStdoutBytes: 16 });
  expect(result.stdout.toString()).toBe('a\0b\0');
});
