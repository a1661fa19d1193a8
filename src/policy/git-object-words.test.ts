import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { commandSecretReason } from './command-secret-paths.js';
import { parseShellCommand } from './shell-command.js';

/**
 * A program that is no git reading git's objects itself (git-object-words.ts), and the other git
 * reads red team red4 found, in real repositories: `leak` committed a token once and removed it,
 * `clean` never held one.
 */

const TOKEN = `ghp_${'k9L0'.repeat(9)}`;
let root: string;

function git(cwd: string, ...args: string[]): void {
  execFileSync(
    'git',
    ['-c', 'user.name=t', '-c', 'user.email=t@t', '-c', 'core.hooksPath=/dev/null', ...args],
    {
      cwd,
      stdio: 'ignore',
      env: { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null' },
    },
  );
}

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'kimi-ts-git-objects-'));
  const leak = join(root, 'leak');
  await mkdir(leak);
  git(leak, 'init', '-q');
  await writeFile(join(leak, 'notes.txt'), `push with ${TOKEN}\n`);
  git(leak, 'add', '.');
  git(leak, 'commit', '-qm', 'one');
  await writeFile(join(leak, 'notes.txt'), 'from the vault\n');
  git(leak, 'commit', '-qam', 'two');
  // A stash holding the token again, and the token staged with the work tree's copy cleaned since.
  await writeFile(join(leak, 'notes.txt'), `push with ${TOKEN}\n`);
  git(leak, 'stash', '-q');
  await writeFile(join(leak, 'notes.txt'), `push with ${TOKEN}\n`);
  git(leak, 'add', '.');
  await writeFile(join(leak, 'notes.txt'), 'from the vault\n');
  const clean = join(root, 'clean');
  await mkdir(clean);
  git(clean, 'init', '-q');
  await writeFile(join(clean, 'a.txt'), 'plain\n');
  git(clean, 'add', '.');
  git(clean, 'commit', '-qm', 'clean');
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

async function reason(command: string, folder: string): Promise<string | null> {
  const parsed = await parseShellCommand(command);
  const homes = { userHome: join(root, 'home'), kimiHome: join(root, 'home', '.kimi-ts'), configFiles: [] };
  return commandSecretReason(
    parsed.parts,
    join(root, folder),
    homes,
    undefined,
    parsed.loopWords,
    false,
    parsed.analysed,
  );
}

it.each([
  `python3 -c "import zlib,glob;[print(zlib.decompress(open(f,'rb').read())) for f in glob.glob('.git/objects/??/*')]"`,
  'python3 inflate.py .git/objects/??/*',
  'zlib-flate -uncompress < .git/objects/ab/cdef',
  'cp -r .git /tmp/copy',
  'cp -r .git/* /tmp/copy',
  'ls .git/modules/m/objects',
  'tar cf - .git',
  'ls objects/pack',
  'cat ../leak/.git/objects/info/packs',
])('%s reads the stored files: asked', async (command) => {
  expect(await reason(command, 'leak')).toMatch(/holds a GitHub token/);
});

it("a word naming another repository's objects judges that repository's store", async () => {
  expect(await reason('tar cf - ../leak/.git', 'clean')).toMatch(/holds a GitHub token/);
  expect(await reason('tar cf - ../clean/.git', 'leak')).toBeNull();
});

it.each([
  'ls .github',
  'cat .gitignore',
  'echo objects',
  'cat src/objects/x.ts',
  'cat .git/HEAD',
  'ls .git/hooks',
])('%s names no object store: asks nothing', async (command) => {
  expect(await reason(command, 'leak')).toBeNull();
});

it('a git folder only run time names is asked', async () => {
  expect(await reason('cp -r "$R/.git" /tmp/x', 'clean')).toMatch(/only run time names/);
});

it.each([
  'git log --binary',
  'git log -sp',
  'git log --cc',
  'git whatchanged --remerge-diff',
  'git stash list -p',
  'git stash list --patch-with-stat',
  'git diff-files -p',
  'git diff-files -U0 notes.txt',
  'git clone -q . /tmp/c',
  'git checkout -q HEAD~1 && cat notes.txt',
  'git stash pop; cat notes.txt',
  'export GIT_DIR=../leak/.git; git log -p',
])('%s reads a stored file holding the token: asked', async (command) => {
  const folder = command.includes('GIT_DIR') ? 'clean' : 'leak';
  expect(await reason(command, folder)).toMatch(/holds a GitHub token/);
});

it.each([
  'git log --stat',
  'git stash list',
  'git diff-files',
  'git clone -q https://example.com/r /tmp/c',
  'git checkout -q HEAD~1',
  'git checkout -- notes.txt && cat a.txt',
])('%s prints no stored file: asks nothing', async (command) => {
  expect(await reason(command, 'leak')).toBeNull();
});
