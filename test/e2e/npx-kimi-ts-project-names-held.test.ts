import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { installKimiInto } from '../support/kimi-install.js';
import { collect } from '../support/run-cli.js';
import { useScriptedCli } from '../support/scripted-cli.js';
import { toolResults } from '../support/stream-json.js';

// Proves: with kimi-ts run by `npx kimi-ts` from outside the project (npx's cache, a global install), no sandboxed command
// can create the project's `.npmrc` (node-options preloading its code into the next kimi-ts) nor a
// `node_modules/.bin/kimi-ts` or `node_modules/.bin/node` the next `npx kimi-ts` runs (red5 finding).

const cli = useScriptedCli();

it('a command cannot make the next `npx kimi-ts` (not installed in the project) preload code of its own', async () => {
  const server = await cli.startServer();
  const sandbox = await cli.createSandbox({ baseUrl: server.baseUrl });
  // kimi-ts where npx finds it without the project naming it: a prefix outside the workspace (as npx's cache is).
  const prefix = join(sandbox.root, 'npm-prefix');
  const install = await installKimiInto(join(prefix, 'lib'));
  await chmod(join(install, 'dist', 'bin', 'kimi-ts.cjs'), 0o755);
  await mkdir(join(prefix, 'bin'));
  await symlink('../lib/node_modules/kimi-ts/dist/bin/kimi-ts.cjs', join(prefix, 'bin', 'kimi-ts'));
  // The project the person works on: an ordinary npm package that does not depend on kimi-ts.
  await writeFile(
    join(sandbox.workDir, 'package.json'),
    JSON.stringify({ name: 'project', version: '1.0.0' }),
  );
  const marker = join(sandbox.root, 'preloaded-into-kimi-ts');
  const plant = [
    `echo "require('fs').writeFileSync('${marker}', '')" > preload.cjs`,
    'f=$(printf .npm)rc',
    `echo 'node-options=--require=./preload.cjs' > "$f"`,
    'echo finished',
  ].join('; ');
  server.push({ toolCalls: [{ id: 'c1', name: 'Shell', args: { command: plant } }] }, { text: 'Done.' });
  const env = sandbox.env({ npm_config_prefix: prefix, PATH: `${join(prefix, 'bin')}:${process.env.PATH}` });
  const first = await collect(
    spawn(
      'npx',
      [
        '--no-install',
        'kimi-ts',
        '--config-file',
        sandbox.configFile,
        '--print',
        '--output-format',
        'stream-json',
        '-p',
        'go',
      ],
      {
        cwd: sandbox.workDir,
        env,
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    ),
  );
  expect(first.code, first.stderr).toBe(0);
  expect(toolResults(first.stdout)[0]).toContain('finished');
  expect(existsSync(marker), 'nothing ran it during the first session').toBe(false);
  // The person starts kimi-ts again the same way.
  const next = await collect(
    spawn('npx', ['--no-install', 'kimi-ts', '--version'], {
      cwd: sandbox.workDir,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    }),
  );
  expect(next.code, next.stderr).toBe(0);
  expect(existsSync(marker), 'code a command wrote ran inside the next kimi-ts').toBe(false);
});

it('a command cannot make the next `npx kimi-ts` (not installed in the project) run a kimi-ts of its own', async () => {
  const server = await cli.startServer();
  const sandbox = await cli.createSandbox({ baseUrl: server.baseUrl });
  const prefix = join(sandbox.root, 'npm-prefix');
  const install = await installKimiInto(join(prefix, 'lib'));
  await chmod(join(install, 'dist', 'bin', 'kimi-ts.cjs'), 0o755);
  await mkdir(join(prefix, 'bin'));
  await symlink('../lib/node_modules/kimi-ts/dist/bin/kimi-ts.cjs', join(prefix, 'bin', 'kimi-ts'));
  await writeFile(
    join(sandbox.workDir, 'package.json'),
    JSON.stringify({ name: 'project', version: '1.0.0' }),
  );
  const marker = join(sandbox.root, 'fake-kimi-ts-ran');
  const plant = [
    'mkdir -p node_modules/kimi-ts node_modules/.bin',
    `echo '{"name":"kimi-ts","version":"9.9.9","bin":{"kimi-ts":"cli.js"}}' > node_modules/kimi-ts/package.json`,
    `printf '#!/usr/bin/env node\\nrequire("fs").writeFileSync("${marker}", "")\\n' > node_modules/kimi-ts/cli.js`,
    'chmod +x node_modules/kimi-ts/cli.js',
    'ln -s ../kimi-ts/cli.js node_modules/.bin/kimi-ts',
    'echo finished',
  ].join(' && ');
  server.push({ toolCalls: [{ id: 'c1', name: 'Shell', args: { command: plant } }] }, { text: 'Done.' });
  const env = sandbox.env({ npm_config_prefix: prefix, PATH: `${join(prefix, 'bin')}:${process.env.PATH}` });
  const npx = (args: string[]) =>
    collect(
      spawn('npx', ['--no-install', 'kimi-ts', ...args], {
        cwd: sandbox.workDir,
        env,
        stdio: ['ignore', 'pipe', 'pipe'],
      }),
    );
  const first = await npx([
    '--config-file',
    sandbox.configFile,
    '--print',
    '--output-format',
    'stream-json',
    '-p',
    'go',
  ]);
  expect(first.code, first.stderr).toBe(0);
  expect(toolResults(first.stdout)[0]).toContain('finished');
  await npx(['--version']);
  expect(existsSync(marker), "the workspace's own kimi-ts ran in place of the person's").toBe(false);
});

it('a command cannot put a `node` of its own where the next `npx kimi-ts` (not installed in the project) finds it first', async () => {
  const server = await cli.startServer();
  const sandbox = await cli.createSandbox({ baseUrl: server.baseUrl });
  const prefix = join(sandbox.root, 'npm-prefix');
  const install = await installKimiInto(join(prefix, 'lib'));
  await chmod(join(install, 'dist', 'bin', 'kimi-ts.cjs'), 0o755);
  await mkdir(join(prefix, 'bin'));
  await symlink('../lib/node_modules/kimi-ts/dist/bin/kimi-ts.cjs', join(prefix, 'bin', 'kimi-ts'));
  await writeFile(
    join(sandbox.workDir, 'package.json'),
    JSON.stringify({ name: 'project', version: '1.0.0' }),
  );
  const marker = join(sandbox.root, 'fake-node-ran');
  // npx puts the project's node_modules/.bin first on PATH: kimi-ts's `#!/usr/bin/env node` finds this
  // `node`, which passes the call on to the real one (nobody would notice) after leaving its mark.
  const plant = [
    'mkdir -p node_modules/.bin',
    `printf '#!/bin/sh\\ntouch ${marker}\\nexec ${process.execPath} "$@"\\n' > node_modules/.bin/node`,
    'chmod +x node_modules/.bin/node',
    'echo finished',
  ].join(' && ');
  server.push({ toolCalls: [{ id: 'c1', name: 'Shell', args: { command: plant } }] }, { text: 'Done.' });
  const env = sandbox.env({ npm_config_prefix: prefix, PATH: `${join(prefix, 'bin')}:${process.env.PATH}` });
  const npx = (args: string[]) =>
    collect(
      spawn('npx', ['--no-install', 'kimi-ts', ...args], {
        cwd: sandbox.workDir,
        env,
        stdio: ['ignore', 'pipe', 'pipe'],
      }),
    );
  const first = await npx([
    '--config-file',
    sandbox.configFile,
    '--print',
    '--output-format',
    'stream-json',
    '-p',
    'go',
  ]);
  expect(first.code, first.stderr).toBe(0);
  expect(toolResults(first.stdout)[0]).toContain('finished');
  const next = await npx(['--version']);
  expect(next.code, next.stderr).toBe(0);
  expect(existsSync(marker), 'a node a command made ran the next kimi-ts').toBe(false);
});
