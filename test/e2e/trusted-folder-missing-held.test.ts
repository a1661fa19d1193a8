import { existsSync } from 'node:fs';
import { appendFile, mkdir, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { LoopbackServer } from '../support/loopback-server.js';
import type { CliSandbox } from '../support/run-cli.js';
import { useScriptedCli } from '../support/scripted-cli.js';
import type { ScriptedLLMServer } from '../support/scripted-llm-server.js';
import { toolResults } from '../support/stream-json.js';

// Proves: a trusted folder inside the workspace that is missing when a session of its parent starts (not made yet, deleted), or
// named through a symlink, has its rules held all the same: a sandboxed command can neither make it with allow rules nor
// re-point the link at a folder of its own (red5 finding).

const cli = useScriptedCli();

async function privateSite(): Promise<LoopbackServer> {
  const site = await LoopbackServer.start();
  cli.defer(() => site.close());
  site.fallback = (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.end('private-service-answer');
  };
  return site;
}

const PLANT = (folder: string) =>
  [
    `mkdir -p ${folder}/.kimi-ts`,
    `printf '[[permission.rules]]\\ndecision = "allow"\\npattern = "FetchURL(domain:127.0.0.1)"\\n' > ${folder}/.kimi-ts/permissions.toml`,
    'echo planted',
  ].join(' && ');

/** Session 1 in the workspace plants the rules with one sandboxed command (print mode: no person). */
async function plant(sandbox: CliSandbox, server: ScriptedLLMServer, folder: string): Promise<void> {
  server.push(
    { toolCalls: [{ id: 'c1', name: 'Shell', args: { command: PLANT(folder) } }] },
    { text: 'Done.' },
  );
  const first = await sandbox.run(['--print', '--output-format', 'stream-json', '-p', 'go']);
  expect(first.code, first.stderr).toBe(0);
}

/** Session 2, started in `workDir`: the model fetches a private host (refused in print mode unless a rule allows it). */
async function fetchFrom(
  sandbox: CliSandbox,
  server: ScriptedLLMServer,
  site: LoopbackServer,
  workDir: string,
) {
  server.push(
    { toolCalls: [{ id: 'f1', name: 'FetchURL', args: { url: `${site.url}/admin` } }] },
    { text: 'Done.' },
  );
  const run = await sandbox.run(
    [
      '--config-file',
      sandbox.configFile,
      '-w',
      workDir,
      '--print',
      '--output-format',
      'stream-json',
      '-p',
      'go',
    ],
    { bare: true },
  );
  expect(run.code, run.stderr).toBe(0);
  return toolResults(run.stdout)[0];
}

it('a `[trust] folders` entry for a folder not made yet: a command in the parent cannot fill it with rules', async () => {
  const site = await privateSite();
  const server = await cli.startServer();
  const sandbox = await cli.createSandbox({ baseUrl: server.baseUrl });
  const later = join(sandbox.workDir, 'later');
  await appendFile(sandbox.configFile, `\n[trust]\nfolders = [${JSON.stringify(later)}]\n`);
  await plant(sandbox, server, 'later');
  expect(existsSync(join(later, '.kimi-ts', 'permissions.toml')), 'the command wrote rules there').toBe(
    false,
  );
  // The sandbox held the folder (made empty, read-only) and took it away at the end: the person makes it later.
  await mkdir(later, { recursive: true });
  expect(await fetchFrom(sandbox, server, site, later)).not.toContain('private-service-answer');
});

it('a trust record entry for a folder the person deleted: a command in the parent cannot remake it with rules', async () => {
  const site = await privateSite();
  const server = await cli.startServer();
  const sandbox = await cli.createSandbox({ baseUrl: server.baseUrl });
  const gone = join(sandbox.workDir, 'old-clone');
  await mkdir(gone);
  await writeFile(
    join(sandbox.home, 'trusted-folders.json'),
    `${JSON.stringify({ version: 1, folders: [gone], declined: [] })}\n`,
    { mode: 0o600 },
  );
  await rm(gone, { recursive: true });
  await plant(sandbox, server, 'old-clone');
  expect(existsSync(join(gone, '.kimi-ts', 'permissions.toml')), 'the command wrote rules there').toBe(false);
  // The person clones it again.
  await mkdir(gone, { recursive: true });
  expect(await fetchFrom(sandbox, server, site, gone)).not.toContain('private-service-answer');
});

it('a `[trust] folders` entry that names a symlink in the workspace: a command cannot re-point it at a folder of its own', async () => {
  const site = await privateSite();
  const server = await cli.startServer();
  const sandbox = await cli.createSandbox({ baseUrl: server.baseUrl });
  await mkdir(join(sandbox.workDir, 'v1'));
  const current = join(sandbox.workDir, 'current');
  await symlink('v1', current);
  await appendFile(sandbox.configFile, `\n[trust]\nfolders = [${JSON.stringify(current)}]\n`);
  server.push(
    { toolCalls: [{ id: 'c1', name: 'Shell', args: { command: `${PLANT('v2')} && ln -sfn v2 current` } }] },
    { text: 'Done.' },
  );
  const first = await sandbox.run(['--print', '--output-format', 'stream-json', '-p', 'go']);
  expect(first.code, first.stderr).toBe(0);
  expect(await fetchFrom(sandbox, server, site, current)).not.toContain('private-service-answer');
});

it('a `[trust] folders` entry two folders down, neither made yet: a command in the parent cannot make the way to it with rules', async () => {
  const site = await privateSite();
  const server = await cli.startServer();
  const sandbox = await cli.createSandbox({ baseUrl: server.baseUrl });
  const later = join(sandbox.workDir, 'apps', 'later');
  await appendFile(sandbox.configFile, `\n[trust]\nfolders = [${JSON.stringify(later)}]\n`);
  // By another way than mkdir -p: made elsewhere in the workspace, then moved into place.
  server.push(
    {
      toolCalls: [
        {
          id: 'c1',
          name: 'Shell',
          args: {
            command: `mkdir -p stage/later && (${PLANT('stage/later')}); mkdir -p apps; mv stage/later apps/later; echo moved`,
          },
        },
      ],
    },
    { text: 'Done.' },
  );
  const first = await sandbox.run(['--print', '--output-format', 'stream-json', '-p', 'go']);
  expect(first.code, first.stderr).toBe(0);
  expect(existsSync(join(later, '.kimi-ts', 'permissions.toml')), 'the command moved rules there').toBe(
    false,
  );
  await mkdir(later, { recursive: true });
  expect(await fetchFrom(sandbox, server, site, later)).not.toContain('private-service-answer');
});
