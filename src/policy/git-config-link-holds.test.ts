import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { heldNamesWithoutLinks, heldWithoutLinks } from './git-config-link-holds.js';

let root: string;
let work: string;
beforeEach(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), 'kimi-ts-git-config-links-')));
  work = join(root, 'work');
  await mkdir(work);
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

it('holds a plain file or folder by itself', async () => {
  await mkdir(join(work, 'conf'));
  await writeFile(join(work, 'conf', 'shared.gitconfig'), '');
  await mkdir(join(work, '.husky'));
  expect(heldWithoutLinks(join(work, 'conf', 'shared.gitconfig'), [work])).toBe(
    join(work, 'conf', 'shared.gitconfig'),
  );
  expect(heldWithoutLinks(join(work, '.husky'), [work])).toBe(join(work, '.husky'));
});

it('holds the plain folder that holds a link: the name itself one, or one on its way', async () => {
  await mkdir(join(work, 'conf'));
  await writeFile(join(work, 'conf', 'v1.gitconfig'), '');
  await symlink('v1.gitconfig', join(work, 'conf', 'shared.gitconfig'));
  expect(heldWithoutLinks(join(work, 'conf', 'shared.gitconfig'), [work])).toBe(join(work, 'conf'));
  // tools/current -> v1, hooksPath tools/current/hooks: tools/ (the link's folder) is held.
  await mkdir(join(work, 'tools', 'v1', 'hooks'), { recursive: true });
  await symlink('v1', join(work, 'tools', 'current'));
  expect(heldWithoutLinks(join(work, 'tools', 'current', 'hooks'), [work])).toBe(join(work, 'tools'));
  // A dangling link is a link all the same.
  await mkdir(join(work, 'dangling'));
  await symlink('nowhere', join(work, 'dangling', 'x.gitconfig'));
  expect(heldWithoutLinks(join(work, 'dangling', 'x.gitconfig'), [work])).toBe(join(work, 'dangling'));
});

it('holds nothing for a link at the top of a root (the root cannot be read-only); nothing outside', async () => {
  await mkdir(join(work, 'settings'));
  await writeFile(join(work, 'settings', 'shared.gitconfig'), '');
  await symlink('settings', join(work, 'conf'));
  expect(heldWithoutLinks(join(work, 'conf', 'shared.gitconfig'), [work])).toBeNull();
  // Its real path is held by itself (GitConfigHolds names both).
  expect(heldWithoutLinks(join(work, 'settings', 'shared.gitconfig'), [work])).toBe(
    join(work, 'settings', 'shared.gitconfig'),
  );
  expect(heldWithoutLinks(join(root, 'elsewhere', 'x'), [work])).toBeNull();
  expect(heldWithoutLinks(work, [work])).toBeNull();
});

it('for a missing name: the plain folder it would be made in, or at the top the name itself', async () => {
  expect(heldWithoutLinks(join(work, '.gitconfig'), [work])).toBe(join(work, '.gitconfig'));
  expect(heldWithoutLinks(join(work, 'a', 'b', 'c'), [work])).toBe(join(work, 'a'));
  await mkdir(join(work, 'a'));
  expect(heldWithoutLinks(join(work, 'a', 'b', 'c'), [work])).toBe(join(work, 'a'));
  // A file where a folder should be: held by itself (a command cannot swap it for a folder).
  await writeFile(join(work, 'f'), '');
  expect(heldWithoutLinks(join(work, 'f', 'hooks'), [work])).toBe(join(work, 'f'));
});

it('gives each hold once, over several roots', async () => {
  const other = join(root, 'other');
  await mkdir(join(other, 'conf'), { recursive: true });
  await symlink('x', join(other, 'conf', 'a.gitconfig'));
  await symlink('y', join(other, 'conf', 'b.gitconfig'));
  expect(
    heldNamesWithoutLinks(
      [join(other, 'conf', 'a.gitconfig'), join(other, 'conf', 'b.gitconfig'), join(work, '.gitconfig')],
      [work, other],
    ),
  ).toEqual([join(other, 'conf'), join(work, '.gitconfig')]);
});
