import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { useScriptedCli } from '../support/scripted-cli.js';
import { toolResults } from '../support/stream-json.js';

/**
 * Issue #24 (red team). An MCP server the person configured (outside the workspace, here with
 * `--mcp-config-file`) whose command runs a script of the project (`sh mcp/server.sh`, as a project's
 * own MCP server is often started): kimi-ts starts it outside any sandbox at every session start, so
 * the sandbox holds the files its command and args name read-only, as it holds a hook's script
 * (src/app/mcp-server-files.ts).
 */

const cli = useScriptedCli();

it("a command cannot change the script an MCP server of the person's config runs (MCP servers start outside the sandbox)", async () => {
  const server = await cli.startServer();
  const sandbox = await cli.createSandbox({ baseUrl: server.baseUrl });
  const script = join(sandbox.workDir, 'mcp', 'server.sh');
  const marker = join(sandbox.root, 'mcp-server-ran-planted-code');
  const mcpConfig = join(sandbox.root, 'mcp.json');
  await writeFile(mcpConfig, JSON.stringify({ mcpServers: { project: { command: 'sh', args: [script] } } }));
  await mkdir(join(sandbox.workDir, 'mcp'));
  await writeFile(script, 'exit 0\n');
  const attack = [`printf 'touch %s\\nexit 0\\n' '${marker}' > mcp/server.sh`, 'echo finished'].join('; ');
  server.push({ toolCalls: [{ id: 'c1', name: 'Shell', args: { command: attack } }] }, { text: 'Done.' });
  const args = ['--mcp-config-file', mcpConfig, '--print', '--output-format', 'stream-json', '-p', 'go'];
  const first = await sandbox.run(args);
  expect(first.code, first.stderr).toBe(0);
  const [shellResult] = toolResults(first.stdout);
  expect(shellResult).toContain('finished');
  // The next session starts the MCP server again, outside the sandbox.
  server.push({ text: 'Done.' });
  const second = await sandbox.run(args);
  expect(second.code, second.stderr).toBe(0);
  expect(existsSync(marker), 'the planted command ran outside the sandbox').toBe(false);
  expect(await readFile(script, 'utf8')).toBe('exit 0\n');
});
