import { existsSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sandboxHost } from './sandbox-host.js';

/**
 * The trial `bwrap … true` runs once per bwrap binary and kernel setting, not at every start: its
 * verdict is kept in the agent home's cache and used only while what decides it is unchanged.
 * A `bwrap` on PATH that counts its runs (and then runs the real one, or fails) shows when it ran.
 */

let root: string;
let bin: string;
let runs: string;
let cacheDir: string;
let paths = 0;

const REAL_BWRAP = '/usr/bin/bwrap';

/** A PATH not seen before in this process, so the per-process memo does not answer. */
const freshPath = () => `${bin}:/nonexistent-${++paths}:${process.env.PATH ?? ''}`;

async function countedBwrap(body: string): Promise<void> {
  await writeFile(join(bin, 'bwrap'), `#!/bin/sh\necho run >> '${runs}'\n${body}\n`);
  await chmod(join(bin, 'bwrap'), 0o755);
}

async function runCount(): Promise<number> {
  return (await readFile(runs, 'utf8').catch(() => '')).split('\n').filter(Boolean).length;
}

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'kimi-ts-probe-cache-'));
  bin = join(root, 'bin');
  await mkdir(bin);
  runs = join(root, 'runs');
  cacheDir = join(root, 'home', 'cache');
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('the sandbox probe, kept on disk', () => {
  it('probes once, then starts from the kept verdict; probes again when bwrap changes', async () => {
    await countedBwrap(`exec ${REAL_BWRAP} "$@"`);
    expect(sandboxHost(freshPath(), 'linux', cacheDir)).toMatchObject({ available: true });
    expect(await runCount()).toBe(1);
    expect(sandboxHost(freshPath(), 'linux', cacheDir)).toMatchObject({ available: true });
    expect(await runCount()).toBe(1);

    // Another binary at the same path (size and mtime differ): its verdict is its own.
    await countedBwrap(`echo 'bwrap: No permissions to creating new namespace' >&2; exit 1`);
    const refused = sandboxHost(freshPath(), 'linux', cacheDir);
    expect(refused).toMatchObject({ available: false });
    if (!refused.available) expect(refused.problem).toContain('No permissions to creating new namespace');
    expect(await runCount()).toBe(2);
    expect(sandboxHost(freshPath(), 'linux', cacheDir)).toMatchObject({ available: false });
    expect(await runCount()).toBe(2);

    // Fixed (a working bwrap again): probed again, not held back by the kept refusal.
    await countedBwrap(`exec ${REAL_BWRAP} "$@" # fixed`);
    expect(sandboxHost(freshPath(), 'linux', cacheDir)).toMatchObject({ available: true });
    expect(await runCount()).toBe(3);
  });

  it('ignores a kept verdict for another key, or a malformed file, and probes', async () => {
    await countedBwrap(`exec ${REAL_BWRAP} "$@" # planted`);
    const before = await runCount();
    await mkdir(cacheDir, { recursive: true });
    const file = join(cacheDir, 'sandbox-host.json');
    await writeFile(
      file,
      JSON.stringify({ key: 'another bwrap', verdict: { available: false, problem: 'planted', fix: 'x' } }),
    );
    expect(sandboxHost(freshPath(), 'linux', cacheDir)).toMatchObject({ available: true });
    expect(await runCount()).toBe(before + 1);
    await writeFile(file, '{"key": 1, "verdict": "yes"');
    expect(sandboxHost(freshPath(), 'linux', cacheDir)).toMatchObject({ available: true });
    expect(await runCount()).toBe(before + 2);
  });

  it('without a cache folder, probes every time (once per process and PATH)', async () => {
    await countedBwrap(`exec ${REAL_BWRAP} "$@" # uncached`);
    const before = await runCount();
    sandboxHost(freshPath(), 'linux');
    sandboxHost(freshPath(), 'linux');
    expect(await runCount()).toBe(before + 2);
  });

  it("names the seccomp program in each home's own cache: a process with two homes (one removed) runs commands in both", async () => {
    await countedBwrap(`exec ${REAL_BWRAP} "$@" # two homes`);
    const path = freshPath();
    const first = join(root, 'first-home', 'cache');
    const second = join(root, 'second-home', 'cache');
    const inFirst = sandboxHost(path, 'linux', first);
    await rm(join(root, 'first-home'), { recursive: true, force: true });
    const inSecond = sandboxHost(path, 'linux', second);
    expect(inFirst).toMatchObject({ available: true });
    expect(inSecond).toMatchObject({ available: true });
    if (!inSecond.available || inSecond.seccompFile === null) return;
    expect(inSecond.seccompFile.startsWith(join(second, 'sandbox'))).toBe(true);
    expect(existsSync(inSecond.seccompFile)).toBe(true);
  });
});
