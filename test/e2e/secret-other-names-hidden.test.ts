import { execFileSync } from 'node:child_process';
import { link, mkdir, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { useScriptedCli } from '../support/scripted-cli.js';

/**
 * Issue #24, "the workspace's secret files hidden in the sandbox" (red team red4): a hard link of
 * `.env` under another name is the same file; an archive holding a `.env` holds its values; a `.env`
 * that is a symlink leads to a plain-named file. Each was seen whole by a name built at run time or a
 * whole-folder read, and `| rev` took it past the redaction (print mode). (red4's plain-named file
 * holding a token, read by `grep -r .`, is not here: hiding every file a content scan flags blanks a
 * project's own sources and tests that hold sample tokens; see the issue.)
 */

const cli = useScriptedCli();

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

// Hostile variants (secret4): the other name in a folder the walk does not enter (installed code), read
// by a name built at run time and by ReadFile; a zip holding a credentials file deep inside.
it('a hard link of .env inside node_modules is not read by a name built at run time', async () => {
  const sent = await sentBy('cat node_modules/.cache/$(echo set)tings | rev', async (dir) => {
    await writeFile(join(dir, '.env'), 'DB_PASSWORD=correct-horse-battery-staple\n');
    await mkdir(join(dir, 'node_modules', '.cache'), { recursive: true });
    await link(join(dir, '.env'), join(dir, 'node_modules', '.cache', 'settings'));
  });
  expect(sent).not.toContain('elpats-yrettab-esroh-tcerroc');
});

it('a hard link of .env inside node_modules is not read by ReadFile', async () => {
  const { server, sandbox } = await cli.setup([
    { toolCalls: [{ id: 'c', name: 'ReadFile', args: { path: 'node_modules/.cache/settings' } }] },
    { text: 'done' },
  ]);
  await writeFile(join(sandbox.workDir, '.env'), 'DB_PASSWORD=correct-horse-battery-staple\n');
  await mkdir(join(sandbox.workDir, 'node_modules', '.cache'), { recursive: true });
  await link(join(sandbox.workDir, '.env'), join(sandbox.workDir, 'node_modules', '.cache', 'settings'));
  const result = await sandbox.run(['--print', '--output-format', 'stream-json', '-p', 'look']);
  expect(result.code).toBe(0);
  const { messages } = server.requests[1]!.body as { messages: { role: string; content: unknown }[] };
  const sent = JSON.stringify(messages.filter((m) => m.role === 'tool').map((m) => m.content));
  expect(sent).not.toMatch(/correct-horse/);
});

it('a zip holding a deep .npmrc is not read by a name built at run time', async () => {
  const sent = await sentBy('unzip -p "$(ls | grep zip)" | rev', async (dir) => {
    await mkdir(join(dir, 'old', 'packages', 'app'), { recursive: true });
    await writeFile(
      join(dir, 'old', 'packages', 'app', '.npmrc'),
      '//r/:_authToken=correct-horse-battery-staple\n',
    );
    execFileSync('zip', ['-qr', join(dir, 'release.zip'), 'packages'], { cwd: join(dir, 'old') });
    await rm(join(dir, 'old'), { recursive: true });
  });
  expect(sent).not.toContain('elpats-yrettab-esroh-tcerroc');
});
