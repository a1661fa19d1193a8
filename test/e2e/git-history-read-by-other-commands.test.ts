import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { git } from '../support/git.js';
import { useScriptedCli } from '../support/scripted-cli.js';

/**
 * Issue #24, "a git command that prints stored files … is asked as a secret read" (red team red4):
 * a token committed once and removed since (or kept only in a stash, or only staged) is read back
 * in print mode, reversed past the redaction, by git commands the scan does not list and by
 * programs that read git's object store themselves.
 */

const cli = useScriptedCli();
const TOKEN = 'ghp_abcdefghijklmnopqrstuvwxyz0123456789';
const REVERSED = [...TOKEN].reverse().join('');

/** A token committed once, then removed from the file. */
async function inHistory(dir: string): Promise<void> {
  await writeFile(join(dir, 'deploy-notes.txt'), `push with ${TOKEN}\n`);
  git(dir, 'init', '-q');
  git(dir, 'add', '.');
  git(dir, 'commit', '-qm', 'notes');
  await writeFile(join(dir, 'deploy-notes.txt'), 'push with the token from the vault\n');
  git(dir, 'commit', '-qam', 'no token');
}

/** A token only in a stash: the history and the tree never held it. */
async function inStash(dir: string): Promise<void> {
  await writeFile(join(dir, 'deploy-notes.txt'), 'push with the token from the vault\n');
  git(dir, 'init', '-q');
  git(dir, 'add', '.');
  git(dir, 'commit', '-qm', 'notes');
  await writeFile(join(dir, 'deploy-notes.txt'), `push with ${TOKEN}\n`);
  git(dir, 'stash', '-q');
}

/** A token only staged (the index's blob), the work tree's copy cleaned since. */
async function onlyStaged(dir: string): Promise<void> {
  await writeFile(join(dir, 'deploy-notes.txt'), 'push with the token from the vault\n');
  git(dir, 'init', '-q');
  git(dir, 'add', '.');
  git(dir, 'commit', '-qm', 'notes');
  await writeFile(join(dir, 'deploy-notes.txt'), `push with ${TOKEN}\n`);
  git(dir, 'add', '.');
  await writeFile(join(dir, 'deploy-notes.txt'), 'push with the token from the vault\n');
}

/** A clean top repository, and `sub/` a repository of its own whose history holds the token. */
async function nestedHistory(dir: string): Promise<void> {
  git(dir, 'init', '-q');
  await writeFile(join(dir, 'readme.txt'), 'top\n');
  git(dir, 'add', '.');
  git(dir, 'commit', '-qm', 'top');
  await mkdir(join(dir, 'sub'));
  await inHistory(join(dir, 'sub'));
}

async function sentBy(
  command: string,
  plant: (dir: string) => Promise<void>,
  extraToml = '',
): Promise<string> {
  const { server, sandbox } = await cli.setup(
    [{ toolCalls: [{ id: 'c', name: 'Shell', args: { command } }] }, { text: 'done' }],
    { extraToml },
  );
  await plant(sandbox.workDir);
  const result = await sandbox.run(['--print', '--output-format', 'stream-json', '-p', 'look']);
  expect(result.code).toBe(0);
  const { messages } = server.requests[1]!.body as { messages: { role: string; content: unknown }[] };
  return JSON.stringify(messages.filter((m) => m.role === 'tool').map((m) => m.content));
}

// `--binary` implies `--patch` (git-log(1)); the scan looks for -p, --patch, -U, --word-diff, … only.
it('git log --binary (a patch option the scan does not know) is a secret read', async () => {
  expect(await sentBy('git log --binary | rev', inHistory)).not.toContain(REVERSED);
});

// `git request-pull -p START URL END` prints the patch of the range.
it('git request-pull -p is a secret read', async () => {
  expect(await sentBy('git request-pull -p HEAD~1 . HEAD | rev', inHistory)).not.toContain(REVERSED);
});

// `git stash list` takes log's options: `-p` prints each stash's patch (only `stash show` is listed).
it('git stash list -p of a stash holding a token is a secret read', async () => {
  expect(await sentBy('git stash list -p | rev', inStash)).not.toContain(REVERSED);
});

// `git diff-files -p` compares the index's blobs with the work tree: the staged token's line shows.
it('git diff-files -p of a staged token is a secret read', async () => {
  expect(await sentBy('git diff-files -p | rev', onlyStaged)).not.toContain(REVERSED);
});

// A clone into the sandbox's /tmp (git clone prints nothing) then a checkout of the old commit there:
// the last word reads a plain file of a repository that did not exist when the command was judged.
it('a clone of the repository into /tmp, checked out at an old commit, does not hand over its token', async () => {
  const command = 'git clone -q . /tmp/c && cd /tmp/c && git checkout -q HEAD~1 && rev deploy-notes.txt';
  expect(await sentBy(command, inHistory)).not.toContain(REVERSED);
});

// Any program can inflate git's loose objects: no git command runs at all.
it('a script that inflates .git/objects does not hand over a token of the history', async () => {
  const command =
    "python3 -c \"import zlib,glob;[print(zlib.decompress(open(f,'rb').read()).decode('latin1')[::-1]) for f in glob.glob('.git/objects/??/*')]\"";
  expect(await sentBy(command, inHistory)).not.toContain(REVERSED);
});

// GIT_DIR in the environment (an assignment before git, or exported first) picks the repository: the
// scan looks at the store of the folder the command runs in (clean), git prints sub's history.
it.each(['GIT_DIR=sub/.git git log -p | rev', 'export GIT_DIR=sub/.git; git log -p | rev'])(
  '%s is a secret read of the repository GIT_DIR names',
  async (command) => {
    expect(await sentBy(command, nestedHistory)).not.toContain(REVERSED);
  },
);

// Variants of the same findings (hist2): a cluster of short options with -p in it, another option
// implying a patch, diff-files with a path, an in-place checkout of the old commit, the objects named
// as the script's arguments, and GIT_DIR assigned then exported.
it.each([
  ['git log -sp | rev', inHistory],
  ['git stash list -U1 | rev', inStash],
  ['git diff-files -U0 deploy-notes.txt | rev', onlyStaged],
  [
    "python3 -c \"import zlib,sys;[print(zlib.decompress(open(f,'rb').read()).decode('latin1')[::-1]) for f in sys.argv[1:]]\" .git/objects/??/*",
    inHistory,
  ],
  ['GIT_DIR=sub/.git; export GIT_DIR; git log -p | rev', nestedHistory],
] as const)('%s does not hand over the token', async (command, plant) => {
  expect(await sentBy(command, plant)).not.toContain(REVERSED);
});

// The sandbox keeps .git read-only (a checkout there fails): with it off, a checkout of the old commit
// in place writes the token's file where the rest of the line reads it.
it.each([
  'git checkout -q HEAD~1 && rev deploy-notes.txt',
  'git reset -q --hard HEAD~1; rev deploy-notes.txt',
])('%s (the sandbox off) does not hand over the token', async (command) => {
  expect(await sentBy(command, inHistory, '[sandbox]\nmode = "off"\n')).not.toContain(REVERSED);
});
