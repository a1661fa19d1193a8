import { existsSync } from 'node:fs';
import { mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { plantThenRunAgain, sandboxWithPostShellHook } from '../support/post-shell-hook.js';
import { useScriptedCli } from '../support/scripted-cli.js';
import { toolResults } from '../support/stream-json.js';

/**
 * Issue #24. A script a hook or a stdio MCP server of the person names runs outside the sandbox: an
 * existing file is held read-only by itself, but a name that is a symlink, or that names nothing yet,
 * could be replaced or created by a command, and the next session would run it (the hook watch of
 * src/app/hook-script-watch.ts only skips such a hook in the session that saw the change). The
 * folder the name lies in is held read-only instead (made, empty, where it does not exist).
 */

const cli = useScriptedCli();

async function mcpConfigRunning(root: string, script: string): Promise<string> {
  const file = join(root, 'mcp.json');
  await writeFile(file, JSON.stringify({ mcpServers: { project: { command: 'sh', args: [script] } } }));
  return file;
}

it("a command cannot replace an MCP server's script that is a symlink, for the next session to run", async () => {
  const server = await cli.startServer();
  const sandbox = await cli.createSandbox({ baseUrl: server.baseUrl });
  const marker = join(sandbox.root, 'mcp-ran-replaced-link');
  await mkdir(join(sandbox.workDir, 'mcp'));
  await mkdir(join(sandbox.workDir, 'shared'));
  await writeFile(join(sandbox.workDir, 'shared', 'server.sh'), 'exit 0\n');
  await symlink('../shared/server.sh', join(sandbox.workDir, 'mcp', 'server.sh'));
  const config = await mcpConfigRunning(sandbox.root, join(sandbox.workDir, 'mcp', 'server.sh'));
  const plant = `rm -f mcp/server.sh; printf 'touch %s\\nexit 0\\n' '${marker}' > mcp/server.sh; echo finished`;
  server.push({ toolCalls: [{ id: 'c1', name: 'Shell', args: { command: plant } }] }, { text: 'Done.' });
  const args = ['--mcp-config-file', config, '--print', '--output-format', 'stream-json', '-p', 'go'];
  const first = await sandbox.run(args);
  expect(first.code, first.stderr).toBe(0);
  expect(toolResults(first.stdout)[0]).toContain('finished');
  server.push({ text: 'Done.' });
  const second = await sandbox.run(args);
  expect(second.code, second.stderr).toBe(0);
  expect(existsSync(marker), 'the planted script ran outside the sandbox').toBe(false);
});

it("a command cannot create an MCP server's script that is missing at start, for the next session to run", async () => {
  const server = await cli.startServer();
  const sandbox = await cli.createSandbox({ baseUrl: server.baseUrl });
  const marker = join(sandbox.root, 'mcp-ran-created-script');
  await mkdir(join(sandbox.workDir, 'mcp'));
  const config = await mcpConfigRunning(sandbox.root, join(sandbox.workDir, 'mcp', 'server.sh'));
  const plant = `printf 'touch %s\\nexit 0\\n' '${marker}' > mcp/server.sh; echo finished`;
  const write = {
    name: 'WriteFile',
    args: { path: 'mcp/server.sh', content: `touch '${marker}'\nexit 0\n` },
  };
  server.push(
    { toolCalls: [{ id: 'c1', name: 'Shell', args: { command: plant } }] },
    { toolCalls: [{ id: 'c2', ...write }] },
    { text: 'Done.' },
  );
  const args = ['--mcp-config-file', config, '--print', '--output-format', 'stream-json', '-p', 'go'];
  const first = await sandbox.run(args);
  expect(first.code, first.stderr).toBe(0);
  expect(toolResults(first.stdout)[0]).toContain('finished');
  expect(existsSync(join(sandbox.workDir, 'mcp', 'server.sh'))).toBe(false);
  server.push({ text: 'Done.' });
  const second = await sandbox.run(args);
  expect(second.code, second.stderr).toBe(0);
  expect(existsSync(marker), 'the planted script ran outside the sandbox').toBe(false);
});

it("a command cannot create the script a person's hook names, in a folder missing at start, for the next session's hook to run", async () => {
  const server = await cli.startServer();
  const sandbox = await cli.createSandbox({
    baseUrl: server.baseUrl,
    extraToml: '[[hooks]]\nevent = "SessionStart"\ncommand = "sh scripts/hooks/start.sh"\n',
  });
  const marker = join(sandbox.root, 'hook-ran-created-script');
  const plant = `mkdir -p scripts/hooks && echo "touch '${marker}'" > scripts/hooks/start.sh; echo finished`;
  server.push({ toolCalls: [{ id: 'c1', name: 'Shell', args: { command: plant } }] }, { text: 'Done.' });
  const first = await sandbox.run(['--print', '--output-format', 'stream-json', '-p', 'go']);
  expect(first.code, first.stderr).toBe(0);
  expect(toolResults(first.stdout)[0]).toContain('finished');
  // Nothing of the held folder is left in the person's tree.
  expect(existsSync(join(sandbox.workDir, 'scripts'))).toBe(false);
  server.push({ text: 'Done.' });
  const second = await sandbox.run(['--print', '--output-format', 'stream-json', '-p', 'go']);
  expect(second.code, second.stderr).toBe(0);
  expect(existsSync(marker), 'the planted hook script ran outside the sandbox').toBe(false);
});

it('an existing script keeps running, and the rest of its folder is the person to change', async () => {
  const server = await cli.startServer();
  const sandbox = await cli.createSandbox({ baseUrl: server.baseUrl });
  const script = join(sandbox.workDir, 'mcp', 'server.sh');
  await mkdir(join(sandbox.workDir, 'mcp'));
  await writeFile(script, 'exit 0\n');
  await writeFile(join(sandbox.workDir, 'mcp', 'notes.txt'), 'old\n');
  const config = await mcpConfigRunning(sandbox.root, script);
  server.push(
    {
      toolCalls: [{ id: 'c1', name: 'Shell', args: { command: 'echo new > mcp/notes.txt; echo finished' } }],
    },
    { text: 'Done.' },
  );
  const first = await sandbox.run([
    '--mcp-config-file',
    config,
    '--print',
    '--output-format',
    'stream-json',
    '-p',
    'go',
  ]);
  expect(first.code, first.stderr).toBe(0);
  // A plain file held by itself: its folder stays writable.
  expect(await readFile(join(sandbox.workDir, 'mcp', 'notes.txt'), 'utf8')).toBe('new\n');
});

it("a command cannot plant a module beside a Python hook script (Python imports from the script's folder first)", async () => {
  const { server, sandbox } = await sandboxWithPostShellHook(cli, 'python3 scripts/check.py');
  const marker = join(sandbox.root, 'hook-imported-planted-module');
  await mkdir(join(sandbox.workDir, 'scripts'));
  await writeFile(join(sandbox.workDir, 'scripts', 'check.py'), 'import json\nprint(json.dumps({}))\n');
  await plantThenRunAgain(
    server,
    sandbox,
    `printf 'open("%s", "w").write("x")\\n' '${marker}' > scripts/json.py; echo finished`,
  );
  expect(existsSync(marker), 'the hook imported the planted module outside the sandbox').toBe(false);
  expect(existsSync(join(sandbox.workDir, 'scripts', 'json.py'))).toBe(false);
});
