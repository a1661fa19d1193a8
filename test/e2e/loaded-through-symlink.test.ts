import { cp, mkdir, readFile, readlink, symlink, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { expect, it } from 'vitest';
import { useScriptedCli } from '../support/scripted-cli.js';

/**
 * A config file or agent spec kimi-ts loads through a symlink in the workspace (`--config-file
 * conf/kimi.toml` with `conf` → `settings/v1`): the sandbox holds where the link leads, but the link is
 * an entry of a writable folder, and a command can replace it; the next start with the same path would
 * load what it then leads to (the red-team helper's finding: a planted hook ran). Nothing in a session
 * can tell the next one which link was the person's, so the start says so, with the real path to give.
 */

const cli = useScriptedCli();
const example = resolve(import.meta.dirname, '../../examples/custom-tool');

it('the start says when a config file or the agent spec is reached through a symlink in the workspace', async () => {
  const { sandbox } = await cli.setup([{ text: 'Done.' }, { text: 'Done.' }]);
  const work = sandbox.workDir;
  await mkdir(join(work, 'settings', 'v1'), { recursive: true });
  await writeFile(join(work, 'settings', 'v1', 'kimi.toml'), await readFile(sandbox.configFile, 'utf8'));
  await symlink('settings/v1', join(work, 'conf'));
  await cp(example, join(work, 'agents', 'v2'), { recursive: true });
  await symlink('agents/v2', join(work, 'agent'));
  const linked = await sandbox.run(
    [
      ...['--config-file', join(work, 'conf', 'kimi.toml'), '-w', work],
      ...['--agent-file', join(work, 'agent', 'agent.yaml'), '--print', '-p', 'go'],
    ],
    { bare: true },
  );
  expect(linked.code, linked.stderr).toBe(0);
  expect(linked.stderr).toContain(
    `kimi-ts loads ${join(work, 'conf', 'kimi.toml')} through the symlink ${join(work, 'conf')}, which lies in a folder commands may write`,
  );
  expect(linked.stderr).toContain(
    `Give the real path (${join(work, 'settings', 'v1', 'kimi.toml')}) instead.`,
  );
  expect(linked.stderr).toContain(`through the symlink ${join(work, 'agent')}`);
  // Given by their real paths: nothing to say.
  const direct = await sandbox.run(
    [
      ...['--config-file', join(work, 'settings', 'v1', 'kimi.toml'), '-w', work],
      ...['--agent-file', join(work, 'agents', 'v2', 'agent.yaml'), '--print', '-p', 'go'],
    ],
    { bare: true },
  );
  expect(direct.code, direct.stderr).toBe(0);
  expect(direct.stderr).not.toContain('through the symlink');
});

it('a link below the top of the workspace is held with its folder: a command cannot re-point it, and the start has nothing to say', async () => {
  const { sandbox, server } = await cli.setup([]);
  const work = sandbox.workDir;
  await mkdir(join(work, 'settings', 'v1'), { recursive: true });
  await mkdir(join(work, 'settings', 'evil'), { recursive: true });
  await writeFile(join(work, 'settings', 'v1', 'kimi.toml'), await readFile(sandbox.configFile, 'utf8'));
  await mkdir(join(work, 'cfg'));
  await symlink('../settings/v1', join(work, 'cfg', 'conf'));
  const repoint = 'rm cfg/conf; ln -sfn ../settings/evil cfg/conf; mv cfg cfg-old; echo finished';
  server.push({ toolCalls: [{ id: 'c1', name: 'Shell', args: { command: repoint } }] }, { text: 'Done.' });
  const result = await sandbox.run(
    ['--config-file', join(work, 'cfg', 'conf', 'kimi.toml'), '-w', work, '--print', '-p', 'go'],
    { bare: true },
  );
  expect(result.code, result.stderr).toBe(0);
  expect(result.stderr).not.toContain('through the symlink');
  expect(await readlink(join(work, 'cfg', 'conf'))).toBe('../settings/v1');
});

it('with the sandbox off, a link below the top of the workspace is said at start too (nothing holds it)', async () => {
  const { sandbox } = await cli.setup([{ text: 'Done.' }]);
  const work = sandbox.workDir;
  await mkdir(join(work, 'settings', 'v1'), { recursive: true });
  await writeFile(join(work, 'settings', 'v1', 'kimi.toml'), await readFile(sandbox.configFile, 'utf8'));
  await mkdir(join(work, 'cfg'));
  await symlink('../settings/v1', join(work, 'cfg', 'conf'));
  const result = await sandbox.run(
    [
      ...['--config-file', join(work, 'cfg', 'conf', 'kimi.toml'), '-w', work],
      ...['--sandbox', 'off', '--print', '-p', 'go'],
    ],
    { bare: true },
  );
  expect(result.code, result.stderr).toBe(0);
  expect(result.stderr).toContain(
    `kimi-ts loads ${join(work, 'cfg', 'conf', 'kimi.toml')} through the symlink ${join(work, 'cfg', 'conf')}`,
  );
});
