import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { git } from '../support/git.js';
import { useScriptedCli } from '../support/scripted-cli.js';

/**
 * Issue #24, git's history scan (print mode, where a secret read is refused): a repository whose
 * history holds a token (kimi-ts's own holds fake ones in its test fixtures) had every `git diff`
 * refused, though `git diff` prints only the index's and the work tree's files; while an alias, a
 * wrapper (xargs, find -exec), `GIT_DIR=` another repository and a commit message printed the
 * token unasked.
 */

const cli = useScriptedCli();

const TOKEN = 'ghp_abcdefghijklmnopqrstuvwxyz0123456789';
const REVERSED = [...TOKEN].reverse().join('');

function toolMessages(body: unknown): string {
  const { messages } = body as { messages: { role: string; content: unknown }[] };
  return JSON.stringify(messages.filter((m) => m.role === 'tool').map((m) => m.content));
}

async function runOne(command: string, plant: (workDir: string) => Promise<void>): Promise<string> {
  const { server, sandbox } = await cli.setup([
    { toolCalls: [{ id: 'c', name: 'Shell', args: { command } }] },
    { text: 'done' },
  ]);
  await plant(sandbox.workDir);
  const result = await sandbox.run(['--print', '--output-format', 'stream-json', '-p', 'look']);
  expect(result.code).toBe(0);
  return toolMessages(server.requests[1]!.body);
}

/** A repository in `dir` whose history held a token (committed, then removed), with src/a.ts changed since. */
async function leakedOnce(dir: string): Promise<void> {
  await mkdir(join(dir, 'src'), { recursive: true });
  await writeFile(join(dir, 'src', 'a.ts'), 'export const a = 1;\n');
  await writeFile(join(dir, 'deploy-notes.txt'), `push with ${TOKEN}\n`);
  git(dir, 'init', '-q');
  git(dir, 'add', '.');
  git(dir, 'commit', '-qm', 'notes');
  await writeFile(join(dir, 'deploy-notes.txt'), 'push with the token from the vault\n');
  git(dir, 'commit', '-qam', 'no token');
  await writeFile(join(dir, 'src', 'a.ts'), 'export const a = 2;\n');
}

it('git diff of the work tree runs where only the history holds a token', async () => {
  const sent = await runOne('git diff', async (dir) => leakedOnce(dir));
  expect(sent).toContain('export const a = 2;');
});

// The repository's config (the sandbox hides the home's config files from the command).
it("an alias of git show in the repository's config is a secret read", async () => {
  const sent = await runOne('git sh HEAD~1 | rev', async (dir) => {
    await leakedOnce(dir);
    git(dir, 'config', 'alias.sh', 'show');
  });
  expect(sent).not.toContain(REVERSED);
});

it('git show run by xargs is a secret read', async () => {
  const sent = await runOne('echo HEAD~1 | xargs git show | rev', async (dir) => leakedOnce(dir));
  expect(sent).not.toContain(REVERSED);
});

it('git show run by find -exec is a secret read', async () => {
  const sent = await runOne('find . -maxdepth 0 -exec git show HEAD~1 \\; | rev', async (dir) =>
    leakedOnce(dir),
  );
  expect(sent).not.toContain(REVERSED);
});

it("GIT_DIR naming another repository's store is a secret read", async () => {
  const sent = await runOne('GIT_DIR=vendor/old/.git git log -p | rev', async (dir) => {
    await mkdir(join(dir, 'vendor', 'old'), { recursive: true });
    await leakedOnce(join(dir, 'vendor', 'old'));
  });
  expect(sent).not.toContain(REVERSED);
});

it('git log of a commit message holding a token is a secret read', async () => {
  const sent = await runOne('git log | rev', async (dir) => {
    await writeFile(join(dir, 'a.txt'), 'plain\n');
    git(dir, 'init', '-q');
    git(dir, 'add', '.');
    git(dir, 'commit', '-qm', `deploy with ${TOKEN}`);
  });
  expect(sent).not.toContain(REVERSED);
});
