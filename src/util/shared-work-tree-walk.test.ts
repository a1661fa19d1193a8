import { mkdirSync } from 'node:fs';
import { mkdir, mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { SharedWorkTreeWalk } from './shared-work-tree-walk.js';
import { type FolderVisitor, WorkTreeWalk } from './work-tree-walk.js';

let root: string;
beforeEach(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), 'kimi-ts-shared-walk-')));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

/** A visitor that lists the folders handed to it into `into`. */
const lister =
  (into: string[]): FolderVisitor =>
  ({ relative }) =>
    void into.push(relative);

it('readings asked for in the same turn of the event loop are one reading, handing each folder to every visitor', async () => {
  await mkdir(join(root, 'a', 'b'), { recursive: true });
  await mkdir(join(root, 'node_modules', 'pkg'), { recursive: true });
  const shared = new SharedWorkTreeWalk(new WorkTreeWalk(root));
  const reads = vi.spyOn(shared.walk, 'read');
  const every: string[] = [];
  const some: string[] = [];
  await Promise.all([
    shared.read(lister(every)),
    shared.read((folder) => {
      some.push(folder.relative);
      return (name) => name !== 'node_modules';
    }),
  ]);
  expect(reads).toHaveBeenCalledTimes(1);
  expect(every.sort()).toEqual(['', 'a', 'a/b', 'node_modules', 'node_modules/pkg']);
  expect(some.sort()).toEqual(['', 'a', 'a/b']);
});

it('a reading asked for while one is under way is another, after it: it sees what changed meanwhile', async () => {
  const shared = new SharedWorkTreeWalk(new WorkTreeWalk(root));
  const reads = vi.spyOn(shared.walk, 'read');
  const first: string[] = [];
  const second: string[] = [];
  let next: Promise<unknown> = Promise.resolve();
  await shared.read(({ relative }) => {
    first.push(relative);
    // Mid-reading: a folder made, and a reading asked for.
    if (relative === '') {
      mkdirSync(join(root, 'late'));
      next = shared.read(lister(second));
    }
  });
  await next;
  expect(reads).toHaveBeenCalledTimes(2);
  expect(first).toEqual(['']);
  expect(second.sort()).toEqual(['', 'late']);
});
