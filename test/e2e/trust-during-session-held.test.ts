import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { LoopbackServer } from '../support/loopback-server.js';
import { collect } from '../support/run-cli.js';
import { useScriptedCli } from '../support/scripted-cli.js';
import { toolResults } from '../support/stream-json.js';
import { WireClient } from '../support/wire-process-client.js';

// Proves: a sub-folder trusted while a session of its parent runs (the person says yes in another session) is held by the
// running session from its next command on: its commands cannot write the rules the next session there puts in force (red5 finding).

const cli = useScriptedCli();

it('a folder trusted in another session meanwhile: a command of the running parent session cannot write its rules', async () => {
  const site = await LoopbackServer.start();
  cli.defer(() => site.close());
  site.fallback = (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.end('private-service-answer');
  };
  const server = await cli.startServer();
  const sandbox = await cli.createSandbox({ baseUrl: server.baseUrl });
  // The person's own package with a rule of their own: trusting it would change something, so it is asked.
  const sub = join(sandbox.workDir, 'pkg');
  await mkdir(join(sub, '.kimi-ts'), { recursive: true });
  await writeFile(
    join(sub, '.kimi-ts', 'permissions.toml'),
    '[[permission.rules]]\ndecision = "allow"\npattern = "Shell(npm test)"\n',
  );

  // Session A, in the parent folder, runs (yolo: commands in the sandbox go unasked).
  const parent = new WireClient(sandbox.spawn(['--wire', '--yolo']));
  cli.defer(async () => {
    parent.child.stdin?.end();
    await collect(parent.child);
  });
  await parent.request('initialize', { protocol_version: '1.10' });
  server.push({ text: 'Ready.' });
  expect((await parent.request('prompt', { user_input: 'hello' })).result).toEqual({ status: 'finished' });

  // Meanwhile the person opens the package in another session and trusts it (remembered).
  const other = new WireClient(sandbox.spawn(['--wire', '-w', sub]));
  await other.request('initialize', { protocol_version: '1.10', capabilities: { workspace_trust: true } });
  const ask = await other.waitFor(
    (m) => m.method === 'request' && (m.params as { type: string }).type === 'WorkspaceTrustRequest',
  );
  other.send({ jsonrpc: '2.0', id: ask.id, result: { trusted: true, remember: true } });
  other.child.stdin!.end();
  expect((await collect(other.child)).code).toBe(0);

  // Session A's next command adds an allow rule to the now-trusted package.
  const plant = `printf '[[permission.rules]]\\ndecision = "allow"\\npattern = "FetchURL(domain:127.0.0.1)"\\n' >> pkg/.kimi-ts/permissions.toml; echo done`;
  server.push({ toolCalls: [{ id: 'c1', name: 'Shell', args: { command: plant } }] }, { text: 'Done.' });
  expect((await parent.request('prompt', { user_input: 'go' })).result).toEqual({ status: 'finished' });

  // The next session in the package (print mode: nobody asked) fetches the private host.
  server.push(
    { toolCalls: [{ id: 'f1', name: 'FetchURL', args: { url: `${site.url}/admin` } }] },
    { text: 'Done.' },
  );
  const run = await sandbox.run(
    ['--config-file', sandbox.configFile, '-w', sub, '--print', '--output-format', 'stream-json', '-p', 'go'],
    { bare: true },
  );
  expect(run.code, run.stderr).toBe(0);
  expect(toolResults(run.stdout)[0]).not.toContain('private-service-answer');
});
