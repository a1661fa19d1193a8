import { execFileSync } from 'node:child_process';
import { lstatSync } from 'node:fs';
import { mkdir, mkdtemp, realpath, rename, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type FolderFacts, TooManyFoldersError, type VisitedFolder, WorkTreeWalk } from './work-tree-walk.js';

let root: string;
beforeEach(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), 'kimi-ts-tree-walk-')));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

const git = (...args: string[]) => execFileSync('git', args, { cwd: root });
// A clock a minute ahead: every folder counts as settled, so an unchanged one is not read again.
const later = () => Date.now() + 60_000;

/** The folders of one reading that hold a `.git`, and the folders that were visited. */
async function reading(walk: WorkTreeWalk): Promise<{ withGit: string[]; visited: string[] }> {
  const withGit: string[] = [];
  const visited: string[] = [];
  await walk.read([
    ({ relative, facts }: VisitedFolder) => {
      visited.push(relative);
      if (facts.dotGit !== null) withGit.push(relative);
    },
  ]);
  return { withGit: withGit.sort(), visited };
}

describe('a walk of every folder, reading again only what changed', () => {
  it('finds a .git made in a folder deep under folders whose times did not move', async () => {
    await mkdir(join(root, 'a', 'b', 'c'), { recursive: true });
    const walk = new WorkTreeWalk(root, later);
    expect((await reading(walk)).withGit).toEqual([]);
    const before = lstatSync(join(root, 'a'));
    git('init', '-q', 'a/b/c');
    // Only c's times moved: a and b look as they did.
    expect(lstatSync(join(root, 'a')).mtimeMs).toBe(before.mtimeMs);
    expect((await reading(walk)).withGit).toEqual(['a/b/c']);
  });

  it("finds a .git whose folder's mtime was set back (its ctime moved all the same)", async () => {
    await mkdir(join(root, 'x', 'y'), { recursive: true });
    const y = join(root, 'x', 'y');
    const old = lstatSync(y, { bigint: true }).mtimeNs;
    const walk = new WorkTreeWalk(root, later);
    await reading(walk);
    await mkdir(join(y, '.git'));
    // As a command would, to the nanosecond.
    execFileSync('touch', [
      '-m',
      '-d',
      `@${old / 1_000_000_000n}.${String(old % 1_000_000_000n).padStart(9, '0')}`,
      y,
    ]);
    expect(lstatSync(y, { bigint: true }).mtimeNs).toBe(old);
    expect((await reading(walk)).withGit).toEqual(['x/y']);
  });

  it('reads a folder moved in whole: a .git inside it is found, and one moved out is forgotten', async () => {
    await mkdir(join(root, 'in', 'p', 'q'), { recursive: true });
    await mkdir(join(root, 'elsewhere'));
    const walk = new WorkTreeWalk(root, later);
    await reading(walk);
    // Made outside what was read, then moved in.
    await mkdir(join(root, 'staging'), { recursive: true });
    git('init', '-q', 'staging/r/s');
    await rename(join(root, 'staging', 'r'), join(root, 'in', 'p', 'q', 'r'));
    expect((await reading(walk)).withGit).toEqual(['in/p/q/r/s']);
    await rename(join(root, 'in', 'p'), join(root, 'elsewhere', 'p'));
    expect((await reading(walk)).withGit).toEqual(['elsewhere/p/q/r/s']);
  });

  it('walks node_modules and the like too, not into a .git, not through a symlinked folder', async () => {
    git('init', '-q', 'node_modules/pkg');
    await mkdir(join(root, 'target', 'debug'), { recursive: true });
    await writeFile(join(root, 'target', 'debug', '.gitignore'), '*\n');
    await mkdir(join(root, 'real'));
    await symlink('real', join(root, 'link'));
    const { withGit, visited } = await reading(new WorkTreeWalk(root));
    expect(withGit).toEqual(['node_modules/pkg']);
    expect(visited.sort()).toEqual([
      '',
      'node_modules',
      'node_modules/pkg',
      'real',
      'target',
      'target/debug',
    ]);
  });

  it('stops with an error past maxFolders when the caller asks for a bound', async () => {
    for (let i = 0; i < 5; i++) await mkdir(join(root, `d${i}`));
    const walk = new WorkTreeWalk(root);
    await expect(walk.read([], { maxFolders: 3 })).rejects.toThrow(TooManyFoldersError);
    await expect(walk.read([], { maxFolders: 6 })).resolves.toBeUndefined();
  });
});

describe('visitors that leave folders out', () => {
  /** The folders a reading handed to a visitor leaving out `node_modules`, and their facts. */
  const apart = (seen: Map<string, FolderFacts>) => (folder: VisitedFolder) => {
    seen.set(folder.relative, folder.facts);
    return (name: string) => name !== 'node_modules';
  };

  it('a folder no visitor wants is not read; what was known of it stays for the next reading that enters it', async () => {
    await mkdir(join(root, 'node_modules', 'pkg', 'lib'), { recursive: true });
    await mkdir(join(root, 'src'));
    const walk = new WorkTreeWalk(root, later);
    const first = new Map<string, FolderFacts>();
    await walk.read([({ relative, facts }) => void first.set(relative, facts)]);
    const pruned = new Map<string, FolderFacts>();
    await walk.read([apart(pruned)]);
    expect([...pruned.keys()].sort()).toEqual(['', 'src']);
    // Made while no reading entered node_modules: found by the next that does, and nothing else there read again.
    git('init', '-q', 'node_modules/pkg/lib');
    const again = new Map<string, FolderFacts>();
    await walk.read([({ relative, facts }) => void again.set(relative, facts)]);
    expect(again.get('node_modules/pkg/lib')?.dotGit).toBe('folder');
    expect(again.get('node_modules')).toBe(first.get('node_modules'));
    expect(again.get('node_modules/pkg')).toBe(first.get('node_modules/pkg'));
  });

  it('a folder one visitor wants is handed to it alone; a visitor that stops sees nothing more', async () => {
    await mkdir(join(root, 'node_modules', 'pkg'), { recursive: true });
    await mkdir(join(root, 'a', 'b'), { recursive: true });
    const walk = new WorkTreeWalk(root);
    const some = new Map<string, FolderFacts>();
    const every: string[] = [];
    const stopped: string[] = [];
    await walk.read([
      apart(some),
      ({ relative }) => void every.push(relative),
      ({ relative }) => {
        stopped.push(relative);
        return 'stop';
      },
    ]);
    expect([...some.keys()].sort()).toEqual(['', 'a', 'a/b']);
    expect(every.sort()).toEqual(['', 'a', 'a/b', 'node_modules', 'node_modules/pkg']);
    expect(stopped).toEqual(['']);
  });

  it("gives each folder's depth, entries and the files it was asked to note", async () => {
    await mkdir(join(root, 'a', 'b'), { recursive: true });
    await writeFile(join(root, 'a', 'b', 'keep.me'), '');
    await writeFile(join(root, 'a', 'b', 'other'), '');
    await symlink('other', join(root, 'a', 'b', 'link.me'));
    await mkdir(join(root, 'a', 'dir.me'));
    const walk = new WorkTreeWalk(root, Date.now, () => (name) => name.endsWith('.me'));
    const seen = new Map<string, VisitedFolder>();
    await walk.read([(folder) => void seen.set(folder.relative, folder)]);
    expect(seen.get('a/b')).toMatchObject({ depth: 2, facts: { entries: 3, notedFiles: ['keep.me'] } });
    expect(seen.get('a')).toMatchObject({ depth: 1, facts: { entries: 2, notedFiles: [] } });
  });

  it('a folder that cannot be looked at fails the reading, or is left out and said when the caller asks', async () => {
    // A path longer than PATH_MAX: its folder lists it, its lstat fails (ENAMETOOLONG).
    const name = 'n'.repeat(250);
    const depth = Math.ceil(4200 / (name.length + 1));
    try {
      // Made one folder at a time from the one above (a shell's cd names the whole path).
      execFileSync(
        'python3',
        ['-c', `import os\nfor _ in range(${depth}): os.mkdir('${name}'); os.chdir('${name}')`],
        {
          cwd: root,
        },
      );
      await mkdir(join(root, 'sibling'));
      const walk = new WorkTreeWalk(root);
      await expect(walk.read([])).rejects.toThrow(/ENAMETOOLONG/);
      const unread: string[] = [];
      const visited: string[] = [];
      await walk.read([({ relative }) => void visited.push(relative)], {
        unread: ({ path, error }) =>
          unread.push(`${path.length > 4096} ${(error as { code?: string }).code}`),
      });
      expect(unread).toEqual(['true ENAMETOOLONG']);
      expect(visited).toContain('sibling');
    } finally {
      // rm walks it by descriptors (a path of it is too long to name whole).
      execFileSync('rm', ['-rf', name], { cwd: root });
    }
  });
});

describe('a folder shaped like a bare repository, by git’s own test', () => {
  /** Whether git itself takes `folder` for a git folder (not looking above `root`). */
  const gitTakesIt = (folder: string) => {
    try {
      execFileSync('git', ['rev-parse', '--git-dir'], {
        cwd: folder,
        env: { PATH: process.env.PATH, GIT_CEILING_DIRECTORIES: root, GIT_CONFIG_GLOBAL: '/dev/null' },
        stdio: 'ignore',
      });
      return true;
    } catch {
      return false;
    }
  };

  it('counts objects/refs and commondir reached through symlinks, as git does', async () => {
    git('init', '-q', '--bare', 'store');
    const shape = async (name: string, entries: (dir: string) => Promise<void>) => {
      const dir = join(root, name);
      await mkdir(dir);
      await writeFile(join(dir, 'HEAD'), 'ref: refs/heads/main\n');
      await entries(dir);
    };
    // objects and refs symlinks to folders.
    await shape('linked-store', async (dir) => {
      await symlink('../store/objects', join(dir, 'objects'));
      await symlink('../store/refs', join(dir, 'refs'));
    });
    // commondir a symlink to a file naming the store.
    await writeFile(join(root, 'path.txt'), '../store\n');
    await shape('linked-commondir', (dir) => symlink('../path.txt', join(dir, 'commondir')));
    // objects an executable file (access(X_OK) passes), refs a symlink.
    await shape('exec-objects', async (dir) => {
      await writeFile(join(dir, 'objects'), '', { mode: 0o755 });
      await symlink('../store/refs', join(dir, 'refs'));
    });
    // Not git folders: HEAD with objects only; HEAD with a commondir folder and nothing else.
    await shape('half', (dir) => symlink('../store/objects', join(dir, 'objects')));
    await shape('commondir-folder', (dir) => mkdir(join(dir, 'commondir')));
    const bare: string[] = [];
    await new WorkTreeWalk(root).read([
      ({ relative, facts }) => {
        if (facts.bare) bare.push(relative);
      },
    ]);
    for (const name of ['linked-store', 'linked-commondir', 'exec-objects']) {
      expect(gitTakesIt(join(root, name)), name).toBe(true);
      expect(bare, name).toContain(name);
    }
    for (const name of ['half', 'commondir-folder']) {
      expect(gitTakesIt(join(root, name)), name).toBe(false);
      expect(bare, name).not.toContain(name);
    }
  });
});
