import { existsSync, lstatSync, readdirSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { applyRestore } from './apply-restore.js';
import { CheckpointStore } from './checkpoint-store.js';
import { planRestore } from './restore-plan.js';
import { RACY_NS } from './work-tree-stat.js';

let root: string;
let home: string;
let work: string;
let outside: string;

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'kimi-ts-rewind-symlink-'));
  home = join(root, 'home');
  work = join(root, 'work');
  outside = join(root, 'outside');
  await mkdir(work, { recursive: true });
  await mkdir(outside);
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

/** Waits until every file under the work dir is older than the racy window (a picture trusts it then). */
async function untilSettled(): Promise<void> {
  let newest = 0n;
  for (const name of readdirSync(work, { recursive: true }) as string[]) {
    const s = lstatSync(join(work, name), { bigint: true });
    for (const t of [s.mtimeNs, s.ctimeNs]) if (t > newest) newest = t;
  }
  const settled = newest + RACY_NS + 1_000_000n;
  while (BigInt(Date.now()) * 1_000_000n <= settled) await new Promise((resolve) => setTimeout(resolve, 5));
}

describe('a rewind after the model put a symlink where a recorded folder was', () => {
  it('makes no folder and writes no file outside the work dir', async () => {
    await mkdir(join(work, 'd', 'autostart', 'deep'), { recursive: true });
    await writeFile(join(work, 'd', 'autostart', 'deep', 'job.desktop'), 'Exec=true\n');
    await writeFile(join(work, 'd', 'top.txt'), 'top\n');
    await untilSettled();
    const store = await CheckpointStore.open({ home, sessionId: 's1', roots: [work] });
    const before = await store.record('turn 1');
    await rm(join(work, 'd'), { recursive: true });
    const now = await store.record('before rewind');
    // A background command, after the rewind's own record: `d` becomes a symlink to a folder
    // outside (say ~/.config).
    await symlink(outside, join(work, 'd'));
    const plan = await planRestore(store.gitDir, now.checkpoint.id, before.checkpoint.id, {});
    const report = await applyRestore(store.gitDir, store.roots, plan);
    expect(await readdir(outside)).toEqual([]);
    expect(report.left.map((left) => left.change.path).sort()).toEqual([
      'd/autostart/deep/job.desktop',
      'd/top.txt',
    ]);
    expect(existsSync(join(outside, 'top.txt'))).toBe(false);
  });
});
