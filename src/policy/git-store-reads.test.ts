import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commandSecretReason } from './command-secret-paths.js';
import { parseShellCommand } from './shell-command.js';

/**
 * Which git commands read a secret git's store holds, in real repositories: the commands that print
 * only the index's and HEAD's files are asked only when those hold one (a token in an old fixture is
 * no reason to ask `git diff`); aliases, wrappers, another repository's store and commit messages
 * are seen.
 */

const TOKEN = `ghp_${'e5F6'.repeat(9)}`;
let root: string;
const homes = () => ({
  userHome: join(root, 'home'),
  kimiHome: join(root, 'home', '.kimi-ts'),
  configFiles: [],
});

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

async function commit(cwd: string, files: Record<string, string>, message: string): Promise<void> {
  for (const [name, text] of Object.entries(files)) {
    await mkdir(join(cwd, name, '..'), { recursive: true });
    await writeFile(join(cwd, name), text);
  }
  git(cwd, 'add', '-A');
  git(cwd, 'commit', '-qm', message);
}

async function repo(name: string): Promise<string> {
  const dir = join(root, name);
  await mkdir(dir);
  git(dir, 'init', '-q');
  return dir;
}

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'kimi-ts-git-reads-'));
  // A token committed once, removed since: the history holds it, HEAD and the index do not.
  const leak = await repo('leak');
  await commit(leak, { 'src/a.ts': 'one\n', 'notes.txt': 'plain\n' }, 'one');
  await commit(leak, { 'notes.txt': `push with ${TOKEN}\n` }, 'two');
  await commit(leak, { 'notes.txt': 'from the vault\n' }, 'three');
  git(leak, 'config', 'alias.sh', 'show');
  git(leak, 'config', 'alias.x', '!git show');
  git(leak, 'config', 'alias.l2', 'sh --stat');
  await writeFile(join(leak, 'src', 'a.ts'), 'one, changed\n');
  // A token in a fixture HEAD holds (as kimi-ts's own test fixtures do), unchanged since.
  const fixture = await repo('fixture');
  await commit(fixture, { 'src/a.ts': 'one\n', 'test/fixture.txt': `fake ${TOKEN}\n` }, 'one');
  await writeFile(join(fixture, 'src', 'a.ts'), 'one, changed\n');
  // Touched (a checkout, a formatter that changed nothing): its time is not the index's, its content is.
  const later = new Date(Date.now() + 60_000);
  await utimes(join(fixture, 'test', 'fixture.txt'), later, later);
  // The same, the fixture changed in the work tree.
  const touched = await repo('touched');
  await commit(touched, { 'src/a.ts': 'one\n', 'test/fixture.txt': `fake ${TOKEN}\n` }, 'one');
  await writeFile(join(touched, 'test', 'fixture.txt'), `fake ${TOKEN}\nand one more line\n`);
  // The same, the change staged.
  const staged = await repo('staged');
  await commit(staged, { 'src/a.ts': 'one\n', 'test/fixture.txt': `fake ${TOKEN}\n` }, 'one');
  await writeFile(join(staged, 'test', 'fixture.txt'), `fake ${TOKEN}\nand one more line\n`);
  git(staged, 'add', '.');
  // A new file holding a token, staged: the index holds it, HEAD does not.
  const added = await repo('added');
  await commit(added, { 'src/a.ts': 'one\n' }, 'one');
  await writeFile(join(added, 'deploy.txt'), `push with ${TOKEN}\n`);
  git(added, 'add', '.');
  // A token in a commit message only.
  const message = await repo('message');
  await commit(message, { 'a.txt': 'plain\n' }, `deploy with ${TOKEN}`);
  // A token in a note (git log shows the notes of refs/notes/commits).
  const noted = await repo('noted');
  await commit(noted, { 'a.txt': 'plain\n' }, 'plain');
  git(noted, 'notes', 'add', '-m', `deploy with ${TOKEN}`);
  const clean = await repo('clean');
  await commit(clean, { 'a.txt': 'plain\n' }, 'clean');
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

async function reason(command: string, folder: string): Promise<string | null> {
  const parsed = await parseShellCommand(command);
  return commandSecretReason(
    parsed.parts,
    join(root, folder),
    homes(),
    undefined,
    parsed.loopWords,
    false,
    parsed.analysed,
  );
}

describe('commands that print only the index and HEAD', () => {
  it.each([
    'git diff',
    'git diff --stat',
    'git diff --cached',
    'git diff --staged -- src',
    'git diff HEAD',
    'git diff HEAD -- src/a.ts',
    'git diff src/a.ts',
    'git --no-pager diff -U5 src',
    'git status -v',
    'git add -p src/a.ts',
  ])('%s asks nothing when only the history holds a token', async (command) => {
    expect(await reason(command, 'leak')).toBeNull();
  });

  it.each([
    'git diff HEAD~1',
    'git diff HEAD~2 HEAD',
    'git diff --cached HEAD~1',
    'git diff main~1..main',
    'git diff nowhere',
  ])('%s reads the history: asked', async (command) => {
    expect(await reason(command, 'leak')).toMatch(/holds a GitHub token/);
  });

  it.each(['git diff', 'git diff --cached', 'git diff HEAD', 'git status -v', 'git add -p', 'git stash -p'])(
    '%s asks nothing when HEAD holds a token in a file nobody changed',
    async (command) => {
      expect(await reason(command, 'fixture')).toBeNull();
    },
  );

  it.each([
    ['git diff', 'touched', "the index's test/fixture.txt"],
    ['git diff -- test', 'touched', "the index's test/fixture.txt"],
    ['git diff HEAD', 'touched', "HEAD's test/fixture.txt"],
    ['git add -p', 'touched', "the index's test/fixture.txt"],
    ['git diff --cached', 'staged', "the index's test/fixture.txt"],
    ['git diff HEAD', 'staged', "HEAD's test/fixture.txt"],
    ['git status -v', 'staged', "the index's test/fixture.txt"],
    ['git diff --cached', 'added', "the index's deploy.txt"],
    ['git diff HEAD', 'added', "the work tree's (as the index's) deploy.txt"],
    ['git commit -v', 'added', "the index's deploy.txt"],
  ])('%s in %s prints a changed file holding a token: asked', async (command, folder, says) => {
    expect(await reason(command, folder)).toContain(`${says} holds a GitHub token`);
  });

  it.each([
    ['git diff -- src', 'touched'],
    ['git diff --cached', 'touched'],
    ['git diff', 'staged'],
    ['git diff', 'added'],
    ['git diff --cached -- src', 'added'],
  ])('%s in %s prints no file holding a token: asks nothing', async (command, folder) => {
    expect(await reason(command, folder)).toBeNull();
  });
});

describe('git reads the scan did not see', () => {
  it.each([
    'git sh HEAD~1',
    'git l2 HEAD~1',
    'git x HEAD~1',
    'git -c alias.q=show q HEAD~1',
    "sh -c 'git show HEAD~1'",
    "bash -c 'git log -p'",
    'echo HEAD~1 | xargs git show',
    'find . -maxdepth 0 -exec git show HEAD~1 \\;',
    'timeout 5 git show HEAD~1',
    'nice git log -p',
  ])('%s is asked', async (command) => {
    expect(await reason(command, 'leak')).toMatch(/holds a GitHub token/);
  });

  it.each([
    'GIT_DIR=../leak/.git git show HEAD~1',
    'env GIT_DIR=../leak/.git git log -p',
    'git -C ../leak show HEAD~1',
    'git --git-dir ../leak/.git show HEAD~1',
  ])("%s reads another repository's store: asked", async (command) => {
    expect(await reason(command, 'clean')).toMatch(/holds a GitHub token/);
  });

  it.each(['git -C "$REPO" show', 'GIT_DIR=$REPO git show', 'git --git-dir="$D" log -p'])(
    '%s reads a store named at run time: asked',
    async (command) => {
      expect(await reason(command, 'clean')).not.toBeNull();
    },
  );

  it.each([
    'git log',
    'git log --oneline',
    'git shortlog',
    'git reflog',
    'git log -g',
    'git rev-list --format=%B HEAD',
    'git show-branch',
    'git cat-file commit HEAD',
    'git branch -v',
  ])('%s prints commit messages: asked when one holds a token', async (command) => {
    expect(await reason(command, 'message')).toMatch(/GitHub token/);
  });

  it.each(['git log', 'git log --oneline'])(
    '%s prints the notes: asked when one holds a token',
    async (command) => {
      expect(await reason(command, 'noted')).toMatch(/GitHub token/);
    },
  );

  it.each(['git log --oneline', 'git status', 'git branch', 'git sh HEAD', 'git diff'])(
    '%s asks nothing in a clean repository',
    async (command) => {
      expect(await reason(command, 'clean')).toBeNull();
    },
  );

  it.each(['git log --oneline', 'git shortlog -s', 'git status', 'git branch -v'])(
    '%s asks nothing when only a file of the history holds a token',
    async (command) => {
      expect(await reason(command, 'leak')).toBeNull();
    },
  );
});

describe('the store scan stops at its first secret file', () => {
  it("judges the index's and HEAD's files it did not read when a command prints only those", async () => {
    // The same token file as leak's history (the same blob, judged before): this store's scan stops
    // there, before reading src/b.ts; git diff judges src/b.ts then.
    expect(await reason('git show HEAD~1', 'leak')).toMatch(/holds a GitHub token/);
    const again = await repo('again');
    await commit(again, { 'notes.txt': `push with ${TOKEN}\n` }, 'one');
    await commit(again, { 'notes.txt': 'from the vault\n', 'src/b.ts': 'export const b = 2;\n' }, 'two');
    expect(await reason('git show HEAD~1', 'again')).toMatch(/holds a GitHub token/);
    expect(await reason('git diff', 'again')).toBeNull();
    await writeFile(
      join(root, 'again', 'src', 'b.ts'),
      `export const b = '${TOKEN.replace('e5F6', 'g7H8')}';\n`,
    );
    git(join(root, 'again'), 'add', '.');
    expect(await reason('git diff --cached', 'again')).toMatch(/the index's src\/b\.ts holds a GitHub token/);
  });
});
