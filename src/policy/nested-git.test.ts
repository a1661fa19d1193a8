import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { nestedGitPaths } from './nested-git.js';
import { NestedGitIndex } from './nested-git-index.js';

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
    expect((await nestedGitPaths(root, [root])).sort()).toEqual(
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
    expect(await nestedGitPaths(root, [root])).toEqual([]);
  });

  it('an index reads the tree once, and again after each command: a repository a command made is bound for the next', async () => {
    const index = new NestedGitIndex(root, [root]);
    expect(await index.paths()).toEqual([]);
    git('init', '-q', 'made/by/a-command');
    // Until a command ends, the reading stands (a command's own repository is its own work).
    expect(await index.paths()).toEqual([]);
    index.refresh();
    expect(await index.paths()).toEqual([join(root, 'made', 'by', 'a-command', '.git')]);
  });

  it('reads every folder of a wide tree, past the parallel readers', async () => {
    for (let i = 0; i < 30; i++) await mkdir(join(root, `w${i}`, 'x', 'y'), { recursive: true });
    git('init', '-q', 'w29/x/y/sub');
    git('init', '-q', 'w0/deep');
    expect((await nestedGitPaths(root, [root])).sort()).toEqual(
      [join(root, 'w0', 'deep', '.git'), join(root, 'w29', 'x', 'y', 'sub', '.git')].sort(),
    );
  });
});
