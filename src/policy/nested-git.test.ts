import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { nestedGitPaths } from './nested-git.js';

let root: string;
beforeEach(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), 'kimi-ts-nested-git-')));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

const git = (...args: string[]) => execFileSync('git', args, { cwd: root });

describe('the git metadata of nested repositories', () => {
  it('finds nested .git folders, gitfiles and what they name, and a symlinked .git; not the top one', async () => {
    git('init', '-q', '.');
    git('init', '-q', 'a/b/sub');
    git('init', '-q', '--bare', 'store');
    await mkdir(join(root, 'linked'));
    await symlink('../store', join(root, 'linked', '.git'));
    git('init', '-q', '--bare', 'mods/m');
    await mkdir(join(root, 'm'));
    await writeFile(join(root, 'm', '.git'), 'gitdir: ../mods/m\n');
    // A gitfile naming a folder outside the writable roots: the file only (the folder is read-only).
    await mkdir(join(root, 'far'));
    await writeFile(join(root, 'far', '.git'), `gitdir: ${tmpdir()}\n`);
    await mkdir(join(root, 'node_modules', 'pkg'), { recursive: true });
    git('init', '-q', 'node_modules/pkg');
    expect(nestedGitPaths(root, [root]).sort()).toEqual(
      [
        join(root, 'a', 'b', 'sub', '.git'),
        join(root, 'store'),
        join(root, 'm', '.git'),
        join(root, 'mods', 'm'),
        join(root, 'far', '.git'),
      ].sort(),
    );
  });

  it('finds nothing in a tree without nested repositories', async () => {
    git('init', '-q', '.');
    await mkdir(join(root, 'src', 'deep'), { recursive: true });
    expect(nestedGitPaths(root, [root])).toEqual([]);
  });
});
