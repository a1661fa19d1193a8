import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { plantThenRunAgain, sandboxWithPostShellHook } from '../support/post-shell-hook.js';
import { useScriptedCli } from '../support/scripted-cli.js';

/**
 * Issue #24, hooks and MCP servers run outside the sandbox (red team red3): the sandbox holds the
 * files their command words name (mcp-server-files.ts, a hook's named scripts). A server or hook
 * started by module or script name (`python3 -m server`, `npm run mcp`, `npm run lint`) names no
 * file, so a print-mode command rewrites what it runs, and kimi-ts runs that outside any sandbox (the
 * hook right after the command, the MCP server at the next start).
 */

const cli = useScriptedCli();

async function plantThenStartAgain(
  server: { command: string; args: string[] },
  attack: string,
  plant: Record<string, string>,
) {
  const scripted = await cli.startServer();
  const sandbox = await cli.createSandbox({ baseUrl: scripted.baseUrl });
  const marker = join(sandbox.root, 'mcp-server-ran-planted-code');
  const mcpConfig = join(sandbox.root, 'mcp.json');
  await writeFile(
    mcpConfig,
    JSON.stringify({ mcpServers: { project: { ...server, cwd: sandbox.workDir } } }),
  );
  for (const [name, content] of Object.entries(plant)) await writeFile(join(sandbox.workDir, name), content);
  scripted.push(
    { toolCalls: [{ id: 'c1', name: 'Shell', args: { command: attack.replaceAll('MARKER', marker) } }] },
    { text: 'Done.' },
  );
  const args = ['--mcp-config-file', mcpConfig, '--print', '--output-format', 'stream-json', '-p', 'go'];
  const first = await sandbox.run(args);
  expect(first.code, first.stderr).toBe(0);
  scripted.push({ text: 'Done.' });
  const second = await sandbox.run(args);
  expect(second.code, second.stderr).toBe(0);
  expect(existsSync(marker), 'the planted command ran outside the sandbox').toBe(false);
}

// `python3 -m server` runs server.py of its cwd (the project).
it('a command cannot change the module an MCP server runs by `python3 -m`', async () => {
  await plantThenStartAgain(
    { command: 'python3', args: ['-m', 'server'] },
    `printf 'open("MARKER", "w")\\n' > server.py`,
    { 'server.py': 'pass\n' },
  );
});

// `npm run mcp` runs the project's package.json script.
it('a command cannot change the package.json script an MCP server runs by `npm run`', async () => {
  await plantThenStartAgain(
    { command: 'npm', args: ['run', '--silent', 'mcp'] },
    `printf '{"scripts":{"mcp":"touch MARKER"}}' > package.json`,
    { 'package.json': '{"scripts":{"mcp":"true"}}' },
  );
});

// The same for a hook of the person's config that runs the project's lint script (`npm run lint`
// after each Shell call): the hook runs outside the sandbox, right after the command that rewrote it.
it('a command cannot change the package.json script a hook runs by `npm run`', async () => {
  const { server, sandbox } = await sandboxWithPostShellHook(cli, 'npm run --silent lint');
  const marker = join(sandbox.root, 'hook-ran-planted-code');
  await writeFile(join(sandbox.workDir, 'package.json'), '{"scripts":{"lint":"true"}}');
  await plantThenRunAgain(
    server,
    sandbox,
    `printf '{"scripts":{"lint":"touch ${marker}"}}' > package.json; echo finished`,
  );
  expect(existsSync(marker), 'the planted command ran outside the sandbox').toBe(false);
});
