import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { git } from '../support/git.js';
import { useScriptedCli } from '../support/scripted-cli.js';

/**
 * Issue #24 (holes5, 7): a fetch through a remote's NAME that points at a local path (added by an
 * earlier command, or a URL `url.<base>.insteadOf` rewrites to one) copies that folder's store into
 * this one: a read of that store's history, judged as `git fetch ../other` is. Another repository
 * beside the work tree holds a token in its history; print mode, the sandbox off (it keeps .git
 * read-only), `| rev` past the redaction.
 */

const cli = useScriptedCli();
const TOKEN = 'ghp_abcdefghijklmnopqrstuvwxyz0123456789';
const REVERSED = [...TOKEN].reverse().join('');

async function sentBy(steps: readonly string[]): Promise<string> {
  const { server, sandbox } = await cli.setup([
    ...steps.map((command, i) => ({ toolCalls: [{ id: `c${i}`, name: 'Shell', args: { command } }] })),
    { text: 'done' },
  ]);
  const other = join(sandbox.root, 'other');
  await mkdir(other);
  await writeFile(join(other, 'deploy-notes.txt'), `push with ${TOKEN}\n`);
  git(other, 'init', '-q');
  git(other, 'add', '.');
  git(other, 'commit', '-qm', 'notes');
  await writeFile(join(other, 'deploy-notes.txt'), 'push with the token from the vault\n');
  git(other, 'commit', '-qam', 'no token');
  git(sandbox.workDir, 'init', '-q');
  git(sandbox.workDir, 'commit', '-q', '--allow-empty', '-m', 'top');
  const result = await sandbox.run([
    '--print',
    '--sandbox',
    'off',
    '--output-format',
    'stream-json',
    '-p',
    'go',
  ]);
  expect(result.code).toBe(0);
  const { messages } = server.requests[steps.length]!.body as {
    messages: { role: string; content: unknown }[];
  };
  return JSON.stringify(messages.filter((m) => m.role === 'tool').map((m) => m.content));
}

it('a remote added by an earlier command, pointing at a local path, is fetched as that path', async () => {
  const sent = await sentBy(['git remote add x ../other', 'git fetch -q x && git log -p FETCH_HEAD | rev']);
  expect(sent).not.toContain(REVERSED);
});

it('a URL that url.<base>.insteadOf rewrites to a local path is fetched as that path', async () => {
  const sent = await sentBy([
    'git config url.../other.insteadOf gh:team/repo',
    'git fetch -q gh:team/repo && git log -p FETCH_HEAD | rev',
  ]);
  expect(sent).not.toContain(REVERSED);
});

// holes6, 2: the remote added by an earlier part of the same line; `-f` fetches at once.
it('a remote added earlier on the same line, pointing at a local path, is fetched as that path', async () => {
  const sent = await sentBy(['git remote add x ../other && git fetch -q x && git log -p FETCH_HEAD | rev']);
  expect(sent).not.toContain(REVERSED);
});

it('`git remote add -f` with a local path is a fetch of that path', async () => {
  const sent = await sentBy(['git remote add -f x ../other >/dev/null 2>&1; git log -p --all | rev']);
  expect(sent).not.toContain(REVERSED);
});
