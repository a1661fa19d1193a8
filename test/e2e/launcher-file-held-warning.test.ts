import { execFileSync } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { sandboxWithPostShellHook } from '../support/post-shell-hook.js';
import { useScriptedCli } from '../support/scripted-cli.js';
import { toolResults } from '../support/stream-json.js';

/**
 * Issue #24: the sandbox holds read-only what a hook's launcher reads (`npm run lint`: package.json),
 * so a command that writes it (`npm install x`) fails there. The start says which file and why, so
 * the failure is not a mystery; the file stays as it was.
 */

const cli = useScriptedCli();

it('says at start that package.json is read-only because a hook runs `npm run`', async () => {
  const { server, sandbox } = await sandboxWithPostShellHook(cli, 'npm run lint');
  const manifest = join(sandbox.workDir, 'package.json');
  await writeFile(manifest, '{"scripts":{"lint":"true"}}\n');
  server.push(
    { toolCalls: [{ id: 'c1', name: 'Shell', args: { command: 'echo "{}" > package.json; echo done' } }] },
    { text: 'Done.' },
  );
  const result = await sandbox.run(['--print', '--output-format', 'stream-json', '-p', 'go']);
  expect(result.code, result.stderr).toBe(0);
  expect(result.stderr).toContain(
    'package.json is read-only for commands in the sandbox: the hook `npm run lint` reads it and is run with no sandbox',
  );
  expect(result.stderr).toContain('(`npm install x` writes package.json) fails');
  expect(toolResults(result.stdout)[0]).toContain('done');
  expect(await readFile(manifest, 'utf8')).toBe('{"scripts":{"lint":"true"}}\n');
});

it("says at start that a virtual environment's site-packages is read-only when a hook runs its python", async () => {
  const { server, sandbox } = await sandboxWithPostShellHook(cli, '.venv/bin/python check.py');
  execFileSync('python3', ['-m', 'venv', '--without-pip', join(sandbox.workDir, '.venv')]);
  await writeFile(join(sandbox.workDir, 'check.py'), 'print("ok")\n');
  server.push({ text: 'Done.' });
  const result = await sandbox.run(['--print', '--output-format', 'stream-json', '-p', 'go']);
  expect(result.code, result.stderr).toBe(0);
  expect(result.stderr).toMatch(
    /\/site-packages is read-only for commands in the sandbox: the hook `\.venv\/bin\/python check\.py` reads it/,
  );
  expect(result.stderr).toContain('(`pip install x` writes site-packages) fails');
});

it('says nothing of it when the hook reads nothing in the workspace', async () => {
  const { server, sandbox } = await sandboxWithPostShellHook(cli, 'true');
  server.push({ text: 'Done.' });
  const result = await sandbox.run(['--print', '--output-format', 'stream-json', '-p', 'go']);
  expect(result.code, result.stderr).toBe(0);
  expect(result.stderr).not.toContain('is read-only for commands in the sandbox');
});
