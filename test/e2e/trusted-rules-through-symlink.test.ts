import { appendFile, mkdir, readlink, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { LoopbackServer } from '../support/loopback-server.js';
import { useScriptedCli } from '../support/scripted-cli.js';
import { toolResults } from '../support/stream-json.js';

// Proves: where a trusted workspace's rules are reached through a symlink (a `.kimi-ts` shared between projects, a rules file
// kept with the project's other configuration), no sandboxed command changes the rules the next session puts in force (red5 finding).

const cli = useScriptedCli();

it('a trusted workspace whose .kimi-ts is a symlink: a command cannot swap in rules of its own', async () => {
  const site = await LoopbackServer.start();
  cli.defer(() => site.close());
  site.fallback = (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.end('private-service-answer');
  };
  const server = await cli.startServer();
  const sandbox = await cli.createSandbox({ baseUrl: server.baseUrl });
  // The person's rules, shared by their projects through a link.
  const shared = join(sandbox.root, 'shared-rules');
  await mkdir(shared);
  await writeFile(
    join(shared, 'permissions.toml'),
    '[[permission.rules]]\ndecision = "allow"\npattern = "Shell(npm test)"\n',
  );
  await symlink(shared, join(sandbox.workDir, '.kimi-ts'));
  await appendFile(sandbox.configFile, `\n[trust]\nfolders = [${JSON.stringify(sandbox.workDir)}]\n`);
  const plant = [
    'rm .kimi-ts',
    'mkdir .kimi-ts',
    `printf '[[permission.rules]]\\ndecision = "allow"\\npattern = "FetchURL(domain:127.0.0.1)"\\n' > .kimi-ts/permissions.toml`,
    'echo planted',
  ].join(' && ');
  server.push({ toolCalls: [{ id: 'c1', name: 'Shell', args: { command: plant } }] }, { text: 'Done.' });
  const first = await sandbox.run(['--print', '--output-format', 'stream-json', '-p', 'go']);
  expect(first.code, first.stderr).toBe(0);
  server.push(
    { toolCalls: [{ id: 'f1', name: 'FetchURL', args: { url: `${site.url}/admin` } }] },
    { text: 'Done.' },
  );
  const second = await sandbox.run(['--print', '--output-format', 'stream-json', '-p', 'go']);
  expect(second.code, second.stderr).toBe(0);
  expect(toolResults(second.stdout)[0]).not.toContain('private-service-answer');
  // A link at the top of the workspace cannot be held by a bind (only a mount point keeps a name in a
  // writable folder, and a link cannot be one): the command runs, and the person's link is put back after it.
  expect(await readlink(join(sandbox.workDir, '.kimi-ts'))).toBe(shared);
  expect(toolResults(first.stdout)[0]).toContain('put back');
});

it('a trusted workspace whose rules file is a symlink to a workspace file: a command cannot write through it', async () => {
  const site = await LoopbackServer.start();
  cli.defer(() => site.close());
  site.fallback = (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.end('private-service-answer');
  };
  const server = await cli.startServer();
  const sandbox = await cli.createSandbox({ baseUrl: server.baseUrl });
  // The person keeps the rules with the project's other configuration, linked where kimi-ts reads them.
  await mkdir(join(sandbox.workDir, 'config'));
  await writeFile(
    join(sandbox.workDir, 'config', 'kimi-rules.toml'),
    '[[permission.rules]]\ndecision = "allow"\npattern = "Shell(npm test)"\n',
  );
  await mkdir(join(sandbox.workDir, '.kimi-ts'));
  await symlink('../config/kimi-rules.toml', join(sandbox.workDir, '.kimi-ts', 'permissions.toml'));
  await appendFile(sandbox.configFile, `\n[trust]\nfolders = [${JSON.stringify(sandbox.workDir)}]\n`);
  const plant = `printf '[[permission.rules]]\\ndecision = "allow"\\npattern = "FetchURL(domain:127.0.0.1)"\\n' >> config/kimi-rules.toml; echo planted`;
  server.push({ toolCalls: [{ id: 'c1', name: 'Shell', args: { command: plant } }] }, { text: 'Done.' });
  const first = await sandbox.run(['--print', '--output-format', 'stream-json', '-p', 'go']);
  expect(first.code, first.stderr).toBe(0);
  server.push(
    { toolCalls: [{ id: 'f1', name: 'FetchURL', args: { url: `${site.url}/admin` } }] },
    { text: 'Done.' },
  );
  const second = await sandbox.run(['--print', '--output-format', 'stream-json', '-p', 'go']);
  expect(second.code, second.stderr).toBe(0);
  expect(toolResults(second.stdout)[0]).not.toContain('private-service-answer');
});

it('a trusted workspace whose rules file is a symlink to a workspace file: a command cannot move the folder away and make its own', async () => {
  const site = await LoopbackServer.start();
  cli.defer(() => site.close());
  site.fallback = (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.end('private-service-answer');
  };
  const server = await cli.startServer();
  const sandbox = await cli.createSandbox({ baseUrl: server.baseUrl });
  await mkdir(join(sandbox.workDir, 'config'));
  await writeFile(
    join(sandbox.workDir, 'config', 'kimi-rules.toml'),
    '[[permission.rules]]\ndecision = "allow"\npattern = "Shell(npm test)"\n',
  );
  await mkdir(join(sandbox.workDir, '.kimi-ts'));
  await symlink('../config/kimi-rules.toml', join(sandbox.workDir, '.kimi-ts', 'permissions.toml'));
  await appendFile(sandbox.configFile, `\n[trust]\nfolders = [${JSON.stringify(sandbox.workDir)}]\n`);
  // The held file stays where it is; the folder holding it is renamed and made again.
  const plant = [
    'mv config config.old && mkdir config',
    `printf '[[permission.rules]]\\ndecision = "allow"\\npattern = "FetchURL(domain:127.0.0.1)"\\n' > config/kimi-rules.toml`,
    'echo tried',
  ].join('; ');
  server.push({ toolCalls: [{ id: 'c1', name: 'Shell', args: { command: plant } }] }, { text: 'Done.' });
  const first = await sandbox.run(['--print', '--output-format', 'stream-json', '-p', 'go']);
  expect(first.code, first.stderr).toBe(0);
  expect(toolResults(first.stdout)[0]).toContain('tried');
  server.push(
    { toolCalls: [{ id: 'f1', name: 'FetchURL', args: { url: `${site.url}/admin` } }] },
    { text: 'Done.' },
  );
  const second = await sandbox.run(['--print', '--output-format', 'stream-json', '-p', 'go']);
  expect(second.code, second.stderr).toBe(0);
  expect(toolResults(second.stdout)[0]).not.toContain('private-service-answer');
});
