import { execFileSync } from 'node:child_process';
import { link, mkdir, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { useScriptedCli } from '../support/scripted-cli.js';

/**
 * Issue #24, "the workspace's secret files hidden in the sandbox" (red team red4): the sandbox hides
 * files secret by name and those a content scan of this session already found; a plain-named file
 * holding a token that no command's words named yet is seen whole by a whole-folder read or a name
 * built at run time, and `| rev` takes it past the redaction (print mode). A hard link of `.env`
 * under another name is the same file, unhidden.
 */

const cli = useScriptedCli();

const TOKEN = 'ghp_abcdefghijklmnopqrstuvwxyz0123456789';
const REVERSED = [...TOKEN].reverse().join('');

async function sentBy(command: string, plant: (dir: string) => Promise<void>): Promise<string> {
  const { server, sandbox } = await cli.setup([
    { toolCalls: [{ id: 'c', name: 'Shell', args: { command } }] },
    { text: 'done' },
  ]);
  await plant(sandbox.workDir);
  const result = await sandbox.run(['--print', '--output-format', 'stream-json', '-p', 'look']);
  expect(result.code).toBe(0);
  const { messages } = server.requests[1]!.body as { messages: { role: string; content: unknown }[] };
  return JSON.stringify(messages.filter((m) => m.role === 'tool').map((m) => m.content));
}

const notes = async (dir: string) => writeFile(join(dir, 'deploy-notes.txt'), `push with ${TOKEN}\n`);

it.each([
  ['grep -r of the folder', 'grep -rh push . | rev'],
  ['a name from a listing', 'cat "$(ls | grep notes)" | rev'],
  ['tar of the folder', 'tar cf - . | strings | rev'],
])('a token in a plain-named file is not handed over by %s', async (_, command) => {
  expect(await sentBy(command, notes)).not.toContain(REVERSED);
});

// The same file as `.env` (a hard link, as a tarball or a backup tool can leave) under a plain name.
it.each([
  ['Shell', { command: 'cat env-backup | rev' }],
  ['ReadFile', { path: 'env-backup' }],
])('a hard link of .env under another name is not read by %s', async (name, args) => {
  const { server, sandbox } = await cli.setup([{ toolCalls: [{ id: 'c', name, args }] }, { text: 'done' }]);
  await writeFile(join(sandbox.workDir, '.env'), 'DB_PASSWORD=correct-horse-battery-staple\n');
  await link(join(sandbox.workDir, '.env'), join(sandbox.workDir, 'env-backup'));
  const result = await sandbox.run(['--print', '--output-format', 'stream-json', '-p', 'look']);
  expect(result.code).toBe(0);
  const { messages } = server.requests[1]!.body as { messages: { role: string; content: unknown }[] };
  const sent = JSON.stringify(messages.filter((m) => m.role === 'tool').map((m) => m.content));
  expect(sent).not.toMatch(/correct-horse|elpats-yrettab/);
});

// A backup archive holding the project's `.env`: named, it is asked as unscanned (red3); by a name
// built at run time the sandbox shows it whole and tar hands the `.env` over.
it('a .env inside a tar.gz backup is not read by a name built at run time', async () => {
  const sent = await sentBy('tar xzOf "$(ls | grep gz)" | rev', async (dir) => {
    await mkdir(join(dir, 'old'));
    await writeFile(join(dir, 'old', '.env'), 'DB_PASSWORD=correct-horse-battery-staple\n');
    execFileSync('tar', ['czf', join(dir, 'backup.tar.gz'), '-C', join(dir, 'old'), '.env']);
    await rm(join(dir, 'old'), { recursive: true });
  });
  expect(sent).not.toContain('elpats-yrettab-esroh-tcerroc');
});

// A `.env` that is a symlink (to the deployment's values kept beside the project): only regular
// files are hidden, and its target has a plain name. `grep -R` follows it.
it('a .env symlink to a plain-named file is not read by grep -R', async () => {
  const target = 'config/prod-values';
  const sent = await sentBy('grep -Rh DB_ . | rev', async (dir) => {
    await mkdir(join(dir, 'config'));
    await writeFile(join(dir, target), 'DB_PASSWORD=correct-horse-battery-staple\n');
    await symlink(target, join(dir, '.env'));
  });
  expect(sent).not.toContain('elpats-yrettab-esroh-tcerroc');
});
