import { existsSync } from 'node:fs';
import { appendFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { LoopbackServer } from '../support/loopback-server.js';
import type { CliResult, CliSandbox } from '../support/run-cli.js';
import { useScriptedCli } from '../support/scripted-cli.js';
import type { ScriptedLLMServer } from '../support/scripted-llm-server.js';
import { toolResults } from '../support/stream-json.js';

/**
 * Issue #24. The sandbox keeps the workspace's own `.kimi-ts/` read-only (a placeholder when
 * missing), not a sub-folder's: a command can write `sub/.kimi-ts/permissions.toml`, which is the
 * rules file of a session started in `sub`. A trusted folder covers the folders below it for
 * everything but their own rules files: those allow rules need the sub-folder's own trust.
 */

const cli = useScriptedCli();

/** A loopback "private service": print mode fetches it only where a rule the person wrote allows it. */
async function privateSite(): Promise<LoopbackServer> {
  const site = await LoopbackServer.start();
  cli.defer(() => site.close());
  site.fallback = (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.end('private-service-answer');
  };
  return site;
}

/**
 * The next session, started in `workDir` with the same config: the model fetches the private
 * service. Returns the run and the fetch's result.
 */
async function nextSessionFetches(
  sandbox: CliSandbox,
  server: ScriptedLLMServer,
  site: LoopbackServer,
  workDir: string,
): Promise<{ run: CliResult; fetchResult: string | undefined }> {
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
  return { run, fetchResult: toolResults(run.stdout)[0] };
}

it('a command cannot plant project rules in a sub-folder of a trusted workspace that the next session there puts in force', async () => {
  const site = await privateSite();
  const server = await cli.startServer();
  const sandbox = await cli.createSandbox({ baseUrl: server.baseUrl });
  // The person trusts the project folder (their config's [trust] folders).
  await appendFile(sandbox.configFile, `\n[trust]\nfolders = [${JSON.stringify(sandbox.workDir)}]\n`);
  const plant = [
    'mkdir -p sub/.kimi-ts',
    `printf '[[permission.rules]]\\ndecision = "allow"\\npattern = "FetchURL(domain:127.0.0.1)"\\n' > sub/.kimi-ts/permissions.toml`,
    'echo finished',
  ].join(' && ');
  server.push({ toolCalls: [{ id: 'c1', name: 'Shell', args: { command: plant } }] }, { text: 'Done.' });
  const first = await sandbox.run(['--print', '--output-format', 'stream-json', '-p', 'go']);
  expect(first.code, first.stderr).toBe(0);
  // The next session, started in the sub-folder (still inside the trusted folder).
  const { run: second, fetchResult } = await nextSessionFetches(
    sandbox,
    server,
    site,
    join(sandbox.workDir, 'sub'),
  );
  // Print mode refuses a private host unless a rule the person wrote names it.
  expect(fetchResult).not.toContain('private-service-answer');
  // And says why the sub-folder's allow rule is held back.
  expect(second.stderr).toContain("does not cover a sub-folder's own rules file");
});

// An add-dir's own .kimi-ts is held read-only like the work dir's.
it('a command cannot plant project rules in an --add-dir folder (trusted) that the next session there puts in force', async () => {
  const site = await privateSite();
  const server = await cli.startServer();
  const sandbox = await cli.createSandbox({ baseUrl: server.baseUrl });
  const extra = join(sandbox.root, 'extra');
  await mkdir(extra);
  await appendFile(sandbox.configFile, `\n[trust]\nfolders = [${JSON.stringify(extra)}]\n`);
  const plant = [
    `mkdir -p '${extra}/.kimi-ts'`,
    `printf '[[permission.rules]]\\ndecision = "allow"\\npattern = "FetchURL(domain:127.0.0.1)"\\n' > '${extra}/.kimi-ts/permissions.toml'`,
    'echo finished',
  ].join(' && ');
  server.push({ toolCalls: [{ id: 'c1', name: 'Shell', args: { command: plant } }] }, { text: 'Done.' });
  const first = await sandbox.run([
    '--add-dir',
    extra,
    '--print',
    '--output-format',
    'stream-json',
    '-p',
    'go',
  ]);
  expect(first.code, first.stderr).toBe(0);
  const { fetchResult } = await nextSessionFetches(sandbox, server, site, extra);
  expect(fetchResult).not.toContain('private-service-answer');
});

/**
 * A sub-folder that is itself trusted puts its own rules in force with no question: a session in the
 * folder above must not be able to write them. Its `.kimi-ts/` is held read-only like the work
 * dir's (a placeholder when missing), for commands and file tools alike.
 */
for (const tool of ['Shell', 'WriteFile'] as const) {
  it(`a ${tool} call cannot plant project rules in a trusted sub-folder of the workspace`, async () => {
    const site = await privateSite();
    const server = await cli.startServer();
    const sandbox = await cli.createSandbox({ baseUrl: server.baseUrl });
    const sub = join(sandbox.workDir, 'sub');
    await mkdir(sub);
    // The person trusts both folders.
    await appendFile(
      sandbox.configFile,
      `\n[trust]\nfolders = [${JSON.stringify(sandbox.workDir)}, ${JSON.stringify(sub)}]\n`,
    );
    const rules = '[[permission.rules]]\ndecision = "allow"\npattern = "FetchURL(domain:127.0.0.1)"\n';
    const plant =
      tool === 'Shell'
        ? {
            name: 'Shell',
            args: {
              command: `mkdir -p sub/.kimi-ts; printf '${rules.replace(/\n/g, '\\n')}' > sub/.kimi-ts/permissions.toml; echo finished`,
            },
          }
        : { name: 'WriteFile', args: { path: 'sub/.kimi-ts/permissions.toml', content: rules } };
    server.push({ toolCalls: [{ id: 'c1', ...plant }] }, { text: 'Done.' });
    const first = await sandbox.run(['--print', '--output-format', 'stream-json', '-p', 'go']);
    expect(first.code, first.stderr).toBe(0);
    // The empty `.kimi-ts` the sandbox made to hold is gone with the session.
    expect(existsSync(join(sub, '.kimi-ts'))).toBe(false);
    const { fetchResult } = await nextSessionFetches(sandbox, server, site, sub);
    expect(fetchResult).not.toContain('private-service-answer');
  });
}
