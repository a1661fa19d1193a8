import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DecisionRealPaths } from './decision-real-paths.js';

/**
 * The working folder is looked up before a folder in it (its listing tells a missing one with no
 * stat of its own): what a decision sees must be what the file system holds, whichever comes first.
 */

let root: string;
let target: string;

beforeAll(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), 'decision-reals-')));
  target = join(root, 'target');
  await mkdir(target);
  await writeFile(join(target, 'data'), 'x');
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

// Folders are remembered by their identity; a clock a minute ahead makes every folder settled.
const later = () => Date.now() + 60_000;

describe('DecisionRealPaths with the working folder looked up first', () => {
  it('finds a folder missing from the listing missing, and sees it once it is a symlink', async () => {
    const work = await mkdtemp(join(root, 'work-'));
    await writeFile(join(work, 'notes'), 'x');
    for (let i = 0; i < 2; i++) {
      const reals = new DecisionRealPaths(later, work);
      expect(reals.list(join(work, 'k'))).toEqual([]);
      expect(reals.of(join(work, 'k', 'data'))).toBe(join(work, 'k', 'data'));
    }
    await symlink(target, join(work, 'k'));
    const reals = new DecisionRealPaths(later, work);
    expect(reals.list(join(work, 'k'))).toEqual(['data']);
    expect(reals.of(join(work, 'k', 'data'))).toBe(join(target, 'data'));
  });

  it('resolves a folder that is there, a symlink or not', async () => {
    const work = await mkdtemp(join(root, 'work-'));
    await mkdir(join(work, 'sub'));
    await writeFile(join(work, 'sub', 'a.ts'), 'x');
    await symlink(target, join(work, 'link'));
    const reals = new DecisionRealPaths(later, work);
    expect(reals.list(join(work, 'sub'))).toEqual(['a.ts']);
    expect(reals.of(join(work, 'link', 'data'))).toBe(join(target, 'data'));
  });
});
