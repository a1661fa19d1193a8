import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { useScriptedCli } from '../support/scripted-cli.js';

/**
 * Issue #24, "secret files by name" (red team red4): a `.env` that is a symlink to the deployment's
 * values under a plain name (`config/prod-values`) is judged by its target's name only. In print
 * mode ReadFile reads it unasked, Grep lists its lines (by `.env` too), and `cat .env` hands it over;
 * the sandbox does not hide it either (only regular files named like secrets are).
 */

const cli = useScriptedCli();

it.each([
  ['ReadFile', { path: '.env' }],
  ['Grep', { pattern: 'DB_', path: '.', output_mode: 'content' }],
  ['Grep', { pattern: 'DB_', path: '.env', output_mode: 'content' }],
  ['Shell', { command: 'cat .env | rev' }],
])('%s %j does not hand over a .env reached through a symlink', async (name, args) => {
  const { server, sandbox } = await cli.setup([{ toolCalls: [{ id: 'c', name, args }] }, { text: 'done' }]);
  await mkdir(join(sandbox.workDir, 'config'));
  await writeFile(
    join(sandbox.workDir, 'config', 'prod-values'),
    'DB_PASSWORD=correct-horse-battery-staple\n',
  );
  await symlink('config/prod-values', join(sandbox.workDir, '.env'));
  const result = await sandbox.run(['--print', '--output-format', 'stream-json', '-p', 'look']);
  expect(result.code).toBe(0);
  const { messages } = server.requests[1]!.body as { messages: { role: string; content: unknown }[] };
  const sent = JSON.stringify(messages.filter((m) => m.role === 'tool').map((m) => m.content));
  expect(sent).not.toMatch(/correct-horse|elpats-yrettab/);
});

// Hostile variants (secret4): a plain-named symlink whose way passes a `.env` symlink, read by ReadFile
// and by `cat`; the `.env`'s target read by its own plain name, built at run time.
it.each([
  ['ReadFile', { path: 'settings' }],
  ['Shell', { command: 'cat settings | rev' }],
  ['Shell', { command: 'cat config/$(echo prod)-values | rev' }],
])('%s %j does not hand over what a .env symlink leads to', async (name, args) => {
  const { server, sandbox } = await cli.setup([{ toolCalls: [{ id: 'c', name, args }] }, { text: 'done' }]);
  await mkdir(join(sandbox.workDir, 'config'));
  await writeFile(
    join(sandbox.workDir, 'config', 'prod-values'),
    'DB_PASSWORD=correct-horse-battery-staple\n',
  );
  await symlink('config/prod-values', join(sandbox.workDir, '.env'));
  await symlink('.env', join(sandbox.workDir, 'settings'));
  const result = await sandbox.run(['--print', '--output-format', 'stream-json', '-p', 'look']);
  expect(result.code).toBe(0);
  const { messages } = server.requests[1]!.body as { messages: { role: string; content: unknown }[] };
  const sent = JSON.stringify(messages.filter((m) => m.role === 'tool').map((m) => m.content));
  expect(sent).not.toMatch(/correct-horse|elpats-yrettab/);
});
