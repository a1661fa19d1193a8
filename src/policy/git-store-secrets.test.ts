import { execFileSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { gitBlobReadRepoArgs } from './git-blob-commands.js';
import { gitStoreSecretReason } from './git-store-secrets.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'kimi-ts-git-store-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

function git(...args: string[]): void {
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { cwd: dir, stdio: 'ignore' });
}

const TOKEN = `ghp_${'c3D4'.repeat(9)}`;

it('finds a token the history holds, after it is removed from the tree', async () => {
  await writeFile(join(dir, 'notes.txt'), 'plain notes\n');
  git('init', '-q');
  git('add', '.');
  git('commit', '-qm', 'one');
  expect(await gitStoreSecretReason([], dir)).toBeNull();
  await writeFile(join(dir, 'notes.txt'), `push with ${TOKEN}\n`);
  git('commit', '-qam', 'two');
  await writeFile(join(dir, 'notes.txt'), 'from the vault\n');
  git('commit', '-qam', 'three');
  expect(await gitStoreSecretReason([], dir)).toBe("git's object store (its history) holds a GitHub token");
  // Asked again: answered from the objects judged before.
  expect(await gitStoreSecretReason(['-C', dir], tmpdir())).toBe(
    "git's object store (its history) holds a GitHub token",
  );
});

it('finds a file secret by its name in a tree, not a folder of that name', async () => {
  await writeFile(join(dir, '.env.example'), 'A=1\n');
  git('init', '-q');
  git('add', '.');
  git('commit', '-qm', 'example');
  expect(await gitStoreSecretReason([], dir)).toBeNull();
  await writeFile(join(dir, '.env'), 'DB_PASSWORD=opaque-words-here\n');
  git('add', '-f', '.env');
  git('commit', '-qm', 'env');
  expect(await gitStoreSecretReason([], dir)).toBe("git's object store (its history) names a dotenv file");
});

it('has nothing to say outside a repository', async () => {
  expect(await gitStoreSecretReason([], dir)).toBeNull();
  expect(await gitStoreSecretReason([], join(dir, 'missing'))).toBeNull();
});

it.each([
  ['git show HEAD:notes.txt', []],
  ['git log -p', []],
  ['git --no-pager log --patch -3', []],
  ['git -C sub diff HEAD~1', ['-C', 'sub']],
  ['git --git-dir=x/.git cat-file -p abc', ['--git-dir=x/.git']],
  ['GIT_PAGER=cat git -c core.pager=less stash show -p', []],
  ['/usr/bin/git blame f', []],
  ['env git archive HEAD', []],
])('%s prints stored blobs', (command, repo) => {
  expect(gitBlobReadRepoArgs(command.split(' '))).toEqual(repo);
});

it.each([
  'git status',
  'git log --oneline',
  'git log -S token',
  'git -C sub ls-tree HEAD',
  'git stash list',
  'gitk --all',
  'echo git show',
])('%s prints none', (command) => {
  expect(gitBlobReadRepoArgs(command.split(' '))).toBeNull();
});

it('answers an unchanged store without git, and scans again once an object is added', async () => {
  const { readFile } = await import('node:fs/promises');
  await writeFile(join(dir, 'notes.txt'), 'plain notes\n');
  git('init', '-q');
  git('add', '.');
  git('commit', '-qm', 'one');
  expect(await gitStoreSecretReason([], dir)).toBeNull();
  await writeFile(join(dir, 'notes.txt'), `push with ${TOKEN}\n`);
  git('commit', '-qam', 'two'); // a new blob, tree and commit: loose objects in their fan-out folders
  expect(await gitStoreSecretReason([], dir)).toBe("git's object store (its history) holds a GitHub token");
  // git cannot read this repository any more (a HEAD it does not take: "not a git repository", no
  // store, null), but no object came or went: the verdict kept for the store's state answers.
  const head = await readFile(join(dir, '.git', 'HEAD'));
  await writeFile(join(dir, '.git', 'HEAD'), 'not a ref\n');
  try {
    expect(await gitStoreSecretReason(['-C', dir], tmpdir())).toBe(
      "git's object store (its history) holds a GitHub token",
    );
  } finally {
    await writeFile(join(dir, '.git', 'HEAD'), head);
  }
  // Packed by gc (the loose objects go, a pack comes): scanned again, still found.
  git('gc', '-q');
  expect(await gitStoreSecretReason([], dir)).toBe("git's object store (its history) holds a GitHub token");
});
