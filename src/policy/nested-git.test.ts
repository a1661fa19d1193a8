import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, realpath, rename, rm, symlink, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { NestedGitWalk, nestedGitPaths } from './nested-git.js';
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

  it('lists the folders shaped like a bare repository (the top too), not a .git folder', async () => {
    git('init', '-q', '--bare', '.');
    git('init', '-q', '--bare', 'fixtures/one.git');
    git('init', '-q', 'sub');
    await mkdir(join(root, 'half'));
    await writeFile(join(root, 'half', 'HEAD'), 'ref: refs/heads/main\n');
    const walk = new NestedGitWalk(root, [root]);
    await walk.read();
    expect([...walk.bareRepositories()].sort()).toEqual([root, join(root, 'fixtures', 'one.git')].sort());
  });

  it('lists a folder with HEAD and a commondir as a bare repository (git looks in the folder it names)', async () => {
    git('init', '-q', '--bare', 'shared');
    await mkdir(join(root, 'fixture'));
    await writeFile(join(root, 'fixture', 'HEAD'), 'ref: refs/heads/main\n');
    await writeFile(join(root, 'fixture', 'commondir'), '../shared\n');
    // HEAD a symlink (git accepts one leading into refs/), beside a commondir too.
    await mkdir(join(root, 'linked'));
    await symlink('refs/heads/main', join(root, 'linked', 'HEAD'));
    await writeFile(join(root, 'linked', 'commondir'), '../shared\n');
    // A commondir with no HEAD is nothing.
    await mkdir(join(root, 'loose'));
    await writeFile(join(root, 'loose', 'commondir'), '../shared\n');
    const walk = new NestedGitWalk(root, [root]);
    await walk.read();
    expect([...walk.bareRepositories()].sort()).toEqual(
      [join(root, 'shared'), join(root, 'fixture'), join(root, 'linked')].sort(),
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

  describe('read again, only what changed is read again', () => {
    // A clock a minute ahead: every folder counts as settled, so an unchanged one is not read again.
    const later = () => Date.now() + 60_000;

    it('finds a repository made in a folder read before, deep or not, and forgets a removed one', async () => {
      await mkdir(join(root, 'a', 'b', 'c'), { recursive: true });
      await mkdir(join(root, 'quiet', 'x'), { recursive: true });
      const walk = new NestedGitWalk(root, [root], later);
      expect(await walk.read()).toEqual([]);
      git('init', '-q', 'a/b/c/deep');
      git('init', '-q', 'top-level');
      expect((await walk.read()).sort()).toEqual(
        [join(root, 'a', 'b', 'c', 'deep', '.git'), join(root, 'top-level', '.git')].sort(),
      );
      await rm(join(root, 'a', 'b', 'c', 'deep'), { recursive: true });
      expect(await walk.read()).toEqual([join(root, 'top-level', '.git')]);
    });

    it('finds a .git renamed into place, and one that replaced a folder of the same name', async () => {
      await mkdir(join(root, 'r', 'staging'), { recursive: true });
      git('init', '-q', 'r/staging/x');
      const walk = new NestedGitWalk(root, [root], later);
      expect(await walk.read()).toEqual([join(root, 'r', 'staging', 'x', '.git')]);
      await mkdir(join(root, 'r', 'other'));
      await rename(join(root, 'r', 'staging', 'x', '.git'), join(root, 'r', 'other', '.git'));
      expect(await walk.read()).toEqual([join(root, 'r', 'other', '.git')]);
    });

    it('resolves a gitfile and a symlinked .git again each time: where they lead changes while their folder does not', async () => {
      git('init', '-q', '--bare', 'mods/one');
      git('init', '-q', '--bare', 'mods/two');
      await mkdir(join(root, 'sub'));
      await writeFile(join(root, 'sub', '.git'), 'gitdir: ../mods/one\n');
      await mkdir(join(root, 'linked'));
      await symlink('../pointer', join(root, 'linked', '.git'));
      await symlink('mods/one', join(root, 'pointer'));
      const walk = new NestedGitWalk(root, [root], later);
      expect((await walk.read()).sort()).toEqual(
        [join(root, 'sub', '.git'), join(root, 'mods', 'one')].sort(),
      );
      // The gitfile rewritten in place and the link it goes through re-pointed: neither folder changed.
      await writeFile(join(root, 'sub', '.git'), 'gitdir: ../mods/two\n');
      await unlink(join(root, 'pointer'));
      await symlink('mods/two', join(root, 'pointer'));
      expect((await walk.read()).sort()).toEqual(
        [join(root, 'sub', '.git'), join(root, 'mods', 'two')].sort(),
      );
    });

    it('reads a folder again while its times are too recent to tell (the real clock)', async () => {
      await mkdir(join(root, 'fresh'));
      const walk = new NestedGitWalk(root, [root]);
      expect(await walk.read()).toEqual([]);
      git('init', '-q', 'fresh/repo');
      expect(await walk.read()).toEqual([join(root, 'fresh', 'repo', '.git')]);
    });
  });
});
