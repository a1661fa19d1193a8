import { mkdir, mkdtemp, realpath, rename, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { FolderNames } from './folder-names.js';

let root: string;
beforeEach(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), 'kimi-ts-folder-names-')));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

// A clock a minute ahead: every folder counts as settled, so an unchanged one is not listed again.
const later = () => Date.now() + 60_000;

it('keeps the names of an unchanged folder, and lists it again when a name is added, removed or renamed', async () => {
  await writeFile(join(root, 'a'), '');
  const names = new FolderNames(later);
  const first = names.of(root);
  expect([...(first ?? [])]).toEqual(['a']);
  expect(names.of(root)).toBe(first);
  await mkdir(join(root, '.aws'));
  expect([...(names.of(root) ?? [])].sort()).toEqual(['.aws', 'a']);
  await rename(join(root, 'a'), join(root, 'b'));
  expect([...(names.of(root) ?? [])].sort()).toEqual(['.aws', 'b']);
  await rm(join(root, '.aws'), { recursive: true });
  expect([...(names.of(root) ?? [])]).toEqual(['b']);
});

it('lists a folder too recent to tell again each time (the real clock)', async () => {
  const names = new FolderNames();
  const first = names.of(root);
  expect(names.of(root)).not.toBe(first);
  expect(names.of(root)).toEqual(first);
});

it('goes through a symlink, and follows it when it is re-pointed; null for no folder', async () => {
  await mkdir(join(root, 'one'));
  await writeFile(join(root, 'one', 'x'), '');
  await mkdir(join(root, 'two'));
  await writeFile(join(root, 'two', 'y'), '');
  await symlink('one', join(root, 'link'));
  const names = new FolderNames(later);
  expect([...(names.of(join(root, 'link')) ?? [])]).toEqual(['x']);
  await rm(join(root, 'link'));
  await symlink('two', join(root, 'link'));
  expect([...(names.of(join(root, 'link')) ?? [])]).toEqual(['y']);
  expect(names.of(join(root, 'one', 'x'))).toBeNull();
  expect(names.of(join(root, 'missing'))).toBeNull();
});
