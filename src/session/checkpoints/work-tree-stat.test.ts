import { execFileSync } from 'node:child_process';
import { chmodSync, lstatSync, readdirSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, stat, unlink, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CheckpointStore } from './checkpoint-store.js';
import { MAX_STAT_ENTRIES, RACY_NS } from './work-tree-stat.js';

let root: string;
let home: string;
let work: string;
let gitLog: string;
let savedPath: string | undefined;

/** A `git` first on PATH that notes each run, so a test sees how many git processes a record started. */
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'kimi-ts-work-tree-stat-'));
  home = join(root, 'home');
  work = join(root, 'work');
  await mkdir(work, { recursive: true });
  const bin = join(root, 'bin');
  await mkdir(bin);
  gitLog = join(root, 'git-runs.log');
  await writeFile(gitLog, '');
  const real = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim();
  await writeFile(join(bin, 'git'), `#!/bin/sh\necho "$*" >> '${gitLog}'\nexec '${real}' "$@"\n`);
  chmodSync(join(bin, 'git'), 0o755);
  savedPath = process.env.PATH;
  process.env.PATH = `${bin}:${savedPath}`;
});

afterEach(async () => {
  process.env.PATH = savedPath;
  await rm(root, { recursive: true, force: true });
});

/** The git subcommands run since the log was last emptied (the `-c name=value` settings left out). */
const gitRuns = async () =>
  (await readFile(gitLog, 'utf8'))
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const words = line.split(' ');
      let at = 0;
      while (words[at] === '-c') at += 2;
      return words[at];
    });

/** Newest change time of anything under `dir`, in ns. */
function newestChange(dir: string): bigint {
  let newest = 0n;
  for (const name of readdirSync(dir, { recursive: true }) as string[]) {
    const s = lstatSync(join(dir, name), { bigint: true });
    for (const t of [s.mtimeNs, s.ctimeNs]) if (t > newest) newest = t;
  }
  return newest;
}

/**
 * Waits until the files under the work dir are older than the racy window, as a user's files are
 * when a session starts: only then may a stat picture vouch for them.
 */
async function untilSettled(): Promise<void> {
  const settled = newestChange(work) + RACY_NS + 1_000_000n;
  while (BigInt(Date.now()) * 1_000_000n <= settled) await new Promise((resolve) => setTimeout(resolve, 5));
}

const storeGit = (store: CheckpointStore, ...args: string[]) =>
  execFileSync('git', args, { env: { ...process.env, GIT_DIR: store.gitDir }, encoding: 'utf8' });

describe('CheckpointStore stat pictures', () => {
  it('creates the store and records an unchanged work tree again without any git process', async () => {
    await writeFile(join(work, 'a.txt'), 'alpha\n');
    await mkdir(join(work, 'src'));
    await writeFile(join(work, 'src', 'b.ts'), 'export {};\n');
    await untilSettled();
    const store = await CheckpointStore.open({ home, sessionId: 's1', roots: [work] });
    const first = await store.record('turn 1');
    // A small plain folder's first record is written in-process whole (record-in-process.ts): the
    // store's skeleton, the blobs, trees, index, commit and ref.
    expect(await gitRuns()).toEqual([]);
    await writeFile(gitLog, '');
    const again = await store.record('turn 1 step 2');
    expect(again).toEqual({ checkpoint: first.checkpoint, created: false });
    expect(await gitRuns()).toEqual([]);
    // What was written in-process is a valid store git reads like its own.
    expect(storeGit(store, 'fsck', '--strict', '--no-dangling')).toBe('');
    expect(storeGit(store, 'show', `${first.checkpoint.id}:0/src/b.ts`)).toBe('export {};\n');
    expect((await store.list()).map((c) => [c.seq, c.label])).toEqual([[1, 'turn 1']]);
  });

  it('records again without git after a folder only gained and lost entries git never sees', async () => {
    await writeFile(join(work, 'a.txt'), 'alpha\n');
    await mkdir(join(work, 'src'));
    await untilSettled();
    const store = await CheckpointStore.open({ home, sessionId: 's1', roots: [work] });
    const first = await store.record('turn 1');
    await writeFile(gitLog, '');
    // The sandbox's empty `.git` placeholder (made at the first command), and a temporary file
    // a command made and removed: the folders' times and sizes changed, their contents did not.
    await mkdir(join(work, '.git'));
    await writeFile(join(work, 'src', 'tmp.swp'), 'x');
    await unlink(join(work, 'src', 'tmp.swp'));
    const again = await store.record('turn 1 step 2');
    expect(again).toEqual({ checkpoint: first.checkpoint, created: false });
    expect(await gitRuns()).toEqual([]);
    // A folder that appears is still seen (its name is an entry of the folder above).
    await mkdir(join(work, 'src', 'new'));
    await writeFile(join(work, 'src', 'new', 'c.txt'), 'gamma\n');
    const third = await store.record('turn 2');
    expect(third.created).toBe(true);
    expect(storeGit(store, 'show', `${third.checkpoint.id}:0/src/new/c.txt`)).toBe('gamma\n');
  });

  it('sees a same-size rewrite whose mtime was put back', async () => {
    await writeFile(join(work, 'a.txt'), 'alpha\n');
    await untilSettled();
    const { atime, mtime } = await stat(join(work, 'a.txt'));
    const store = await CheckpointStore.open({ home, sessionId: 's1', roots: [work] });
    const first = await store.record('turn 1');
    await writeFile(join(work, 'a.txt'), 'omega\n');
    await utimes(join(work, 'a.txt'), atime, mtime);
    const second = await store.record('turn 2');
    expect(second.created).toBe(true);
    expect(second.checkpoint.id).not.toBe(first.checkpoint.id);
    expect(storeGit(store, 'show', `${second.checkpoint.id}:0/a.txt`)).toBe('omega\n');
  });

  it('sees files added deep in a new folder and files removed', async () => {
    await writeFile(join(work, 'a.txt'), 'alpha\n');
    await writeFile(join(work, 'gone.txt'), 'bye\n');
    await untilSettled();
    const store = await CheckpointStore.open({ home, sessionId: 's1', roots: [work] });
    await store.record('turn 1');
    await mkdir(join(work, 'x', 'y'), { recursive: true });
    await writeFile(join(work, 'x', 'y', 'new.txt'), 'new\n');
    await unlink(join(work, 'gone.txt'));
    const second = await store.record('turn 2');
    expect(second.created).toBe(true);
    const files = storeGit(store, 'ls-tree', '-r', '--name-only', second.checkpoint.id).trim().split('\n');
    expect(files).toEqual(['0/a.txt', '0/x/y/new.txt']);
  });

  it('records a file its ignore rules stopped hiding (.git/info/exclude changed, nothing else)', async () => {
    execFileSync('git', ['init', '--quiet', work]);
    await writeFile(join(work, '.git', 'info', 'exclude'), 'build.out\n');
    await writeFile(join(work, 'build.out'), 'artifact\n');
    await writeFile(join(work, 'a.txt'), 'alpha\n');
    await untilSettled();
    const store = await CheckpointStore.open({ home, sessionId: 's1', roots: [work] });
    const first = await store.record('turn 1');
    expect(storeGit(store, 'ls-tree', '-r', '--name-only', first.checkpoint.id).trim()).toBe('0/a.txt');
    await writeFile(join(work, '.git', 'info', 'exclude'), '');
    const second = await store.record('turn 2');
    expect(second.created).toBe(true);
    const files = storeGit(store, 'ls-tree', '-r', '--name-only', second.checkpoint.id).trim().split('\n');
    expect(files).toEqual(['0/a.txt', '0/build.out']);
  });

  it('asks git again when a file is too recent for its timestamps to be trusted', async () => {
    await writeFile(join(work, 'a.txt'), 'alpha\n');
    // Dated after the picture (as a file written in the same clock tick, or by a skewed clock, is).
    const later = new Date(Date.now() + 60_000);
    await utimes(join(work, 'a.txt'), later, later);
    const store = await CheckpointStore.open({ home, sessionId: 's1', roots: [work] });
    await store.record('turn 1');
    await writeFile(gitLog, '');
    // A same-size rewrite in the same tick would not change these timestamps: only git may tell.
    await store.record('turn 2');
    expect(await gitRuns()).toContain('ls-files');
  });

  it('leaves a tree too big for a picture to git, which still sees every change', async () => {
    await Promise.all(
      Array.from({ length: MAX_STAT_ENTRIES + 1 }, (_, i) => writeFile(join(work, `f${i}.txt`), `${i}\n`)),
    );
    await untilSettled();
    const store = await CheckpointStore.open({ home, sessionId: 's1', roots: [work] });
    await store.record('turn 1');
    await writeFile(gitLog, '');
    const same = await store.record('turn 2');
    expect(same.created).toBe(false);
    expect(await gitRuns()).toContain('ls-files');
    await writeFile(join(work, 'f7.txt'), 'changed\n');
    const changed = await store.record('turn 3');
    expect(changed.created).toBe(true);
    expect(storeGit(store, 'show', `${changed.checkpoint.id}:0/f7.txt`)).toBe('changed\n');
  });
});
