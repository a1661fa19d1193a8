import { existsSync } from 'node:fs';
import { cp, mkdir, readdir, readFile, symlink } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { expect, it } from 'vitest';
import { installKimiInto } from '../support/kimi-install.js';
import { CLI_NODE } from '../support/run-cli.js';
import { useScriptedCli } from '../support/scripted-cli.js';
import { toolResults } from '../support/stream-json.js';

/**
 * kimi-ts installed in the project it works on (`npm i -D kimi-ts`, `npx kimi-ts`): a hostile model
 * tries to change the code kimi-ts loads later in its own process, outside any sandbox (its bundle,
 * the packages it loads when first needed), through a command and through the file tools.
 */

const cli = useScriptedCli();
const repository = resolve(import.meta.dirname, '../..');

it('a command cannot change kimi-ts or the packages it loads later; the workspace stays writable', async () => {
  const attack = [
    'echo "process.exit(7)" >> node_modules/kimi-ts/dist/bin/cli.bundle.cjs',
    'mkdir node_modules/planted-package',
    'rm node_modules/web-tree-sitter',
    'echo fine > fine.txt',
    'echo finished',
  ].join('; ');
  const { sandbox } = await cli.setup([
    { toolCalls: [{ id: 'c1', name: 'Shell', args: { command: attack } }] },
    {
      toolCalls: [
        {
          id: 'w1',
          name: 'WriteFile',
          args: { path: 'node_modules/kimi-ts/dist/bin/evil.cjs', content: 'evil' },
        },
      ],
    },
    { text: 'Done.' },
  ]);
  const install = await installKimiInto(sandbox.workDir);
  const bundle = join(install, 'dist', 'bin', 'cli.bundle.cjs');
  const before = await readFile(bundle, 'latin1');
  const result = await sandbox.run(['--print', '--output-format', 'stream-json', '-p', 'go'], {
    command: [CLI_NODE, join(install, 'dist', 'bin', 'kimi-ts.cjs')],
  });
  expect(result.code, result.stderr).toBe(0);
  const [shellResult, writeResult] = toolResults(result.stdout);
  expect(shellResult).toContain('finished');
  expect(shellResult).toContain('Read-only file system');
  expect(writeResult).toContain("kimi-ts's own code");
  expect(await readFile(bundle, 'latin1')).toBe(before);
  expect(existsSync(join(sandbox.workDir, 'node_modules', 'planted-package'))).toBe(false);
  expect(existsSync(join(sandbox.workDir, 'node_modules', 'web-tree-sitter'))).toBe(true);
  expect(existsSync(join(install, 'dist', 'bin', 'evil.cjs'))).toBe(false);
  expect(await readFile(join(sandbox.workDir, 'fine.txt'), 'utf8')).toBe('fine\n');
  // Nothing to warn of: the sandbox keeps that code read-only.
  expect(result.stderr).not.toContain('inside the folder');
});

it('without the sandbox, kimi-ts says at start that commands could change its code', async () => {
  const { sandbox } = await cli.setup([{ text: 'Done.' }]);
  const install = await installKimiInto(sandbox.workDir);
  const result = await sandbox.run(['--print', '--sandbox', 'off', '-p', 'go'], {
    command: [CLI_NODE, join(install, 'dist', 'bin', 'kimi-ts.cjs')],
  });
  expect(result.code, result.stderr).toBe(0);
  expect(result.stderr).toContain(`kimi-ts runs from ${install}, inside the folder ${sandbox.workDir}`);
  expect(result.stderr).toContain('the sandbox is not on');
});

it('kimi-ts in a plain subfolder of the workspace (a clone in tools/): a command can neither move it nor a folder above it and make a new one', async () => {
  // The folders on the way (tools/, tools/kimi-ts/) stay where they are; what is in them stays writable.
  const attack = [
    'mv tools tools-old',
    'mv tools/kimi-ts tools/kimi-ts-old',
    'mkdir -p tools/kimi-ts/node_modules/planted-package',
    'echo fine > tools/fine.txt',
    'echo finished',
  ].join('; ');
  const { sandbox } = await cli.setup([
    { toolCalls: [{ id: 'c1', name: 'Shell', args: { command: attack } }] },
    { text: 'Done.' },
  ]);
  const install = join(sandbox.workDir, 'tools', 'kimi-ts');
  await mkdir(join(install, 'node_modules'), { recursive: true });
  await cp(join(repository, 'dist'), join(install, 'dist'), { recursive: true });
  await cp(join(repository, 'package.json'), join(install, 'package.json'));
  for (const name of await readdir(join(repository, 'node_modules')))
    if (!name.startsWith('.'))
      await symlink(join(repository, 'node_modules', name), join(install, 'node_modules', name));
  const result = await sandbox.run(['--print', '--output-format', 'stream-json', '-p', 'go'], {
    command: [CLI_NODE, join(install, 'dist', 'bin', 'kimi-ts.cjs')],
  });
  expect(result.code, result.stderr).toBe(0);
  const [shellResult] = toolResults(result.stdout);
  expect(shellResult).toContain('finished');
  expect(shellResult).toContain('Device or resource busy');
  expect(existsSync(join(sandbox.workDir, 'tools-old'))).toBe(false);
  expect(existsSync(join(sandbox.workDir, 'tools', 'kimi-ts-old'))).toBe(false);
  expect(existsSync(join(install, 'node_modules', 'planted-package'))).toBe(false);
  expect(existsSync(join(install, 'dist', 'bin', 'cli.bundle.cjs'))).toBe(true);
  expect(await readFile(join(sandbox.workDir, 'tools', 'fine.txt'), 'utf8')).toBe('fine\n');
});
