import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { installKimiInto } from '../support/kimi-install.js';
import { CLI_NODE, collect } from '../support/run-cli.js';
import { useScriptedCli } from '../support/scripted-cli.js';
import { toolResults } from '../support/stream-json.js';

/**
 * kimi-ts installed in the project it works on (`npm i -D kimi-ts`, then
 * `npx kimi-ts`): the sandbox keeps kimi-ts's code and node_modules read-only so a command cannot
 * change what the next `npx kimi-ts` loads. But npm reads the project's `.npmrc` on every `npx`, and
 * its `node-options` setting becomes NODE_OPTIONS of the kimi-ts process: a command that writes
 * `.npmrc` (`node-options=--require=./preload.cjs`) and `preload.cjs` has its code loaded into the
 * next kimi-ts, outside any sandbox, with the API keys in its memory. The sandbox keeps the project's
 * `.npmrc` read-only too (an empty one, made for the session where there is none, is removed at its end).
 */

const cli = useScriptedCli();

it('a command cannot make the next `npx kimi-ts` preload code of its own (the project .npmrc node-options)', async () => {
  const server = await cli.startServer();
  const sandbox = await cli.createSandbox({ baseUrl: server.baseUrl });
  const install = await installKimiInto(sandbox.workDir, { asDevDependency: true });
  const marker = join(sandbox.root, 'preloaded-into-kimi-ts');
  // `.npmrc` is a secret file by its name: a command naming it is refused, one making the name is not.
  const plant = [
    `echo "require('fs').writeFileSync('${marker}', '')" > preload.cjs`,
    'f=$(printf .npm)rc',
    `echo 'node-options=--require=./preload.cjs' > "$f"`,
    'echo finished',
  ].join('; ');
  server.push({ toolCalls: [{ id: 'c1', name: 'Shell', args: { command: plant } }] }, { text: 'Done.' });
  const first = await sandbox.run(['--print', '--output-format', 'stream-json', '-p', 'go'], {
    command: [CLI_NODE, join(install, 'dist', 'bin', 'kimi-ts.cjs')],
  });
  expect(first.code, first.stderr).toBe(0);
  expect(toolResults(first.stdout)[0]).toContain('finished');
  expect(toolResults(first.stdout)[0]).toContain('Read-only file system');
  expect(existsSync(join(sandbox.workDir, '.npmrc')), 'the placeholder is gone after the session').toBe(
    false,
  );
  // The person starts kimi-ts again, as the README says: `npx kimi-ts`.
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
