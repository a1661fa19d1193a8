import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { SharedWorkTreeWalk } from '../util/shared-work-tree-walk.js';
import { WorkTreeWalk } from '../util/work-tree-walk.js';
import { NestedGitWalk } from './nested-git.js';
import { NestedGitIndex } from './nested-git-index.js';
import { SandboxSecretFiles } from './sandbox-secret-files.js';
import { SECRET_WALK_BOUNDS, SecretFilesWalk, secretNotingWalk } from './workspace-secret-walk.js';

// The two checks of a writable folder after each command (its nested repositories' git metadata and
// its secret files) read it in one walk: each with its own folders, bounds and answers.

let root: string;
beforeEach(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), 'kimi-ts-after-command-')));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

const git = (...args: string[]) => execFileSync('git', args, { cwd: root });

async function put(files: Record<string, string>): Promise<void> {
  for (const [name, content] of Object.entries(files)) {
    await mkdir(dirname(join(root, name)), { recursive: true });
    await writeFile(join(root, name), content);
  }
}

it('a command ended: one reading finds the repository and the .env it made', async () => {
  await put({ 'notes.txt': 'hi' });
  const secrets = new SandboxSecretFiles(join(root, 'cache'));
  // As the sandbox makes them.
  const index = new NestedGitIndex(root, [root], secrets.walkOf(root));
  expect(await index.paths()).toEqual([]);
  expect(await secrets.files([root])).toEqual([]);
  git('init', '-q', 'sub');
  await put({ 'a/.env': 'A=1' });
  const reads = vi.spyOn(secrets.walkOf(root).walk, 'read');
  // As the sandbox does when a command ends.
  index.refresh();
  secrets.refresh();
  expect(await index.paths()).toEqual([join(root, 'sub', '.git')]);
  expect(await secrets.files([root])).toEqual([join(root, 'a', '.env')]);
  expect(reads).toHaveBeenCalledTimes(1);
});

it('each keeps its bounds: the secret files stop at theirs, a repository past it is still found', async () => {
  await put({ 'a/b/c/d/e/.env': 'A=1', 'z/1': '', 'z/2': '', 'z/3': '' });
  git('init', '-q', 'a/b/c/d/e/deep');
  const shared = secretNotingWalk(root);
  const reads = vi.spyOn(shared.walk, 'read');
  const tight = { maxDepth: 16, maxEntries: 6, maxFiles: 10 };
  const [found, nested] = await Promise.all([
    new SecretFilesWalk(root, tight, Date.now, shared).read(),
    new NestedGitWalk(root, [root], Date.now, shared).read(),
  ]);
  expect(found).toEqual({ files: [], boundHit: 'entries' });
  expect(nested).toEqual([join(root, 'a', 'b', 'c', 'd', 'e', 'deep', '.git')]);
  expect(reads).toHaveBeenCalledTimes(1);
});

it('node_modules: searched for repositories, not for secret files (its names not even looked at)', async () => {
  await put({ 'node_modules/pkg/.env': 'A=1', 'node_modules/pkg/key.pem': 'k', '.env': 'B=2' });
  git('init', '-q', 'node_modules/pkg');
  const shared = secretNotingWalk(root);
  const nested = new NestedGitWalk(root, [root], Date.now, shared);
  const [found] = await Promise.all([
    new SecretFilesWalk(root, SECRET_WALK_BOUNDS, Date.now, shared).read(),
    nested.read(),
  ]);
  expect(found.files).toEqual([join(root, '.env')]);
  expect(nested.unboundGitDirs()).toEqual([join(root, 'node_modules', 'pkg', '.git')]);
  const notes = shared.walk.notedFiles;
  expect(notes?.('node_modules/pkg')).toBeNull();
  expect(notes?.('src')?.('.env')).toBe(true);
});

it('a folder that cannot be looked at fails the nested reading (every folder must be seen), not the secret files', async () => {
  await put({ '.env': 'A=1' });
  // A path longer than PATH_MAX: its folder lists it, its lstat fails (ENAMETOOLONG).
  const name = 'n'.repeat(250);
  try {
    execFileSync(
      'python3',
      ['-c', `import os\nfor _ in range(17): os.mkdir('${name}'); os.chdir('${name}')`],
      {
        cwd: root,
      },
    );
    const shared = secretNotingWalk(root);
    const deep = { maxDepth: 30, maxEntries: 1000, maxFiles: 10 };
    const [found, nested] = await Promise.allSettled([
      new SecretFilesWalk(root, deep, Date.now, shared).read(),
      new NestedGitWalk(root, [root], Date.now, shared).read(),
    ]);
    expect(found).toEqual({ status: 'fulfilled', value: { files: [join(root, '.env')], boundHit: null } });
    expect(nested).toMatchObject({ status: 'rejected', reason: { code: 'ENAMETOOLONG' } });
  } finally {
    execFileSync('rm', ['-rf', name], { cwd: root });
  }
});

it('a secret files walk refuses a walk that does not note secret files', () => {
  const plain = new SharedWorkTreeWalk(new WorkTreeWalk(root));
  expect(() => new SecretFilesWalk(root, SECRET_WALK_BOUNDS, Date.now, plain)).toThrow(/secretNotingWalk/);
});
