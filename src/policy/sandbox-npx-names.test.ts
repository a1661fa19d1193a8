import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { isWorkspaceNpmrc, npxKeptNames, workspaceNpmrcFiles } from './sandbox-npx-names.js';
import { sandboxWritable } from './sandbox-protected.js';

let root: string;
let work: string;
beforeEach(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), 'kimi-ts-npx-names-')));
  work = join(root, 'work');
  await mkdir(work);
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

it('binds an existing root .npmrc; a missing one is left to the guard (nothing made in the tree)', async () => {
  expect(workspaceNpmrcFiles([work])).toEqual([]);
  expect(sandboxWritable(join(work, '.npmrc'), [work])).toBe(false);
  await writeFile(join(work, '.npmrc'), 'fund=false\n');
  expect(workspaceNpmrcFiles([work])).toEqual([join(work, '.npmrc')]);
  expect(sandboxWritable(join(work, '.npmrc'), [work])).toBe(false);
  expect(sandboxWritable(join(work, 'src.ts'), [work])).toBe(true);
});

it('holds where a symlinked .npmrc leads inside the workspace, not a target outside it', async () => {
  await mkdir(join(work, 'config'));
  await writeFile(join(work, 'config', 'npmrc'), 'fund=false\n');
  await symlink('config/npmrc', join(work, '.npmrc'));
  expect(workspaceNpmrcFiles([work])).toEqual([join(work, 'config', 'npmrc')]);
  expect(isWorkspaceNpmrc(join(work, 'config', 'npmrc'), [work])).toBe(true);
  expect(sandboxWritable(join(work, 'config', 'npmrc'), [work])).toBe(false);
  await rm(join(work, '.npmrc'));
  await writeFile(join(root, 'npmrc'), '');
  await symlink('../npmrc', join(work, '.npmrc'));
  expect(workspaceNpmrcFiles([work])).toEqual([]);
});

it('names the .npmrc and the bins npx runs of every root, for the guard', () => {
  expect(npxKeptNames([work])).toEqual([
    join(work, '.npmrc'),
    join(work, 'node_modules', '.bin', 'kimi-ts'),
    join(work, 'node_modules', '.bin', 'node'),
  ]);
});
