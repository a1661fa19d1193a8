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

describe('DecisionRealPaths.ofName', () => {
  // Each case in a fresh decision of its own, and in one decision after the joined path's look-up.
  const cases = ['notes', 'link', 'dangling', 'absent', 'sub', 'NOTES', 'ключ'];

  async function folderWithEverything(): Promise<string> {
    const work = await mkdtemp(join(root, 'work-'));
    await writeFile(join(work, 'notes'), 'x');
    await mkdir(join(work, 'sub'));
    await symlink(join(target, 'data'), join(work, 'link'));
    await symlink(join(root, 'nothing-here'), join(work, 'dangling'));
    return work;
  }

  for (const [clock, when] of [
    [later, 'in a settled folder (its listing answers)'],
    [Date.now, 'in a folder just changed (each name looked up)'],
  ] as const) {
    it(`answers as of and knownMissing of the joined path, ${when}`, async () => {
      const work = await folderWithEverything();
      for (const dir of [work, join(work, 'sub'), join(work, 'missing'), join(work, 'missing', 'deeper')]) {
        for (const name of cases) {
          const joined = new DecisionRealPaths(clock, work);
          const byName = new DecisionRealPaths(clock, work);
          const path = join(dir, name);
          expect(byName.ofName(dir, name), path).toBe(joined.of(path));
          expect(byName.knownMissingName(dir, name), path).toBe(joined.knownMissing(path));
          // The same decision asked both ways: one answer.
          expect(joined.ofName(dir, name), path).toBe(joined.of(path));
        }
      }
      expect(new DecisionRealPaths(clock, work).ofName(work, 'link')).toBe(join(target, 'data'));
      expect(new DecisionRealPaths(clock, work).knownMissingName(join(work, 'missing'), 'x')).toBe(true);
    });
  }

  it('follows a symlink swapped in for a name after the folder was listed', async () => {
    const work = await folderWithEverything();
    expect(new DecisionRealPaths(later, work).ofName(work, 'swapped')).toBe(join(work, 'swapped'));
    await symlink(join(target, 'data'), join(work, 'swapped'));
    expect(new DecisionRealPaths(later, work).ofName(work, 'swapped')).toBe(join(target, 'data'));
  });
});
