import { mkdir, mkdtemp, realpath, rm, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { nestedGitPaths } from './nested-git.js';

let root: string;

beforeEach(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), 'kimi-ts-gitfile-')));
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

// A command in the sandbox writes the work tree: a gitfile may be any size (a sparse file costs
// nothing on disk), and the walk resolves every gitfile again at every command, on the event loop.
it('a huge sparse gitfile is read only as far as its first line: its target is found, the rest never read', async () => {
  await mkdir(join(root, 'modules', 'x'), { recursive: true });
  await mkdir(join(root, 'sub'));
  const gitfile = join(root, 'sub', '.git');
  await writeFile(gitfile, 'gitdir: ../modules/x\n');
  // Past the longest string V8 makes: a whole read of it fails outright.
  await truncate(gitfile, 600 * 1024 * 1024);
  expect((await nestedGitPaths(root, [root])).sort()).toEqual([join(root, 'modules', 'x'), gitfile].sort());
});
