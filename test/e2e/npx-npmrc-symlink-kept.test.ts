import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { installKimiInto } from '../support/kimi-install.js';
import { CLI_NODE, collect } from '../support/run-cli.js';
import { useScriptedCli } from '../support/scripted-cli.js';
import { toolResults } from '../support/stream-json.js';

// Proves: the project's `.npmrc` a symlink to a file kept elsewhere in the project: a command that replaces the link with an
// `.npmrc` of its own (node-options preloading its code into the next `npx kimi-ts`) finds the link put back after it (red5 finding).

const cli = useScriptedCli();

it('a command cannot replace a symlinked project .npmrc to preload code into the next `npx kimi-ts`', async () => {
  const server = await cli.startServer();
  const sandbox = await cli.createSandbox({ baseUrl: server.baseUrl });
  const install = await installKimiInto(sandbox.workDir, { asDevDependency: true });
  await mkdir(join(sandbox.workDir, 'config'));
  await writeFile(join(sandbox.workDir, 'config', 'npmrc'), 'fund=false\n');
  await symlink('config/npmrc', join(sandbox.workDir, '.npmrc'));
  const marker = join(sandbox.root, 'preloaded-into-kimi-ts');
  const plant = [
    `echo "require('fs').writeFileSync('${marker}', '')" > preload.cjs`,
    'f=$(printf .npm)rc',
    'rm -f "$f"',
    `echo 'node-options=--require=./preload.cjs' > "$f"`,
    'echo finished',
  ].join('; ');
  server.push({ toolCalls: [{ id: 'c1', name: 'Shell', args: { command: plant } }] }, { text: 'Done.' });
  const first = await sandbox.run(['--print', '--output-format', 'stream-json', '-p', 'go'], {
    command: [CLI_NODE, join(install, 'dist', 'bin', 'kimi-ts.cjs')],
  });
  expect(first.code, first.stderr).toBe(0);
  expect(toolResults(first.stdout)[0]).toContain('finished');
  const next = await collect(
    spawn('npx', ['--no-install', 'kimi-ts', '--version'], {
      cwd: sandbox.workDir,
      env: sandbox.env(),
      stdio: ['ignore', 'pipe', 'pipe'],
    }),
  );
  expect(next.code, next.stderr).toBe(0);
  expect(existsSync(marker), 'code a command wrote ran inside the next kimi-ts').toBe(false);
});
