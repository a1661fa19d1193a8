import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CliSandbox } from '../support/run-cli.js';
import { ScriptedLLMServer } from '../support/scripted-llm-server.js';

let server: ScriptedLLMServer;
let sandbox: CliSandbox;

afterEach(async () => {
  await server?.close();
  await sandbox?.remove();
});

describe('warnings of a session', () => {
  it('reach stderr through the command line while the run goes on (an MCP server that cannot start)', async () => {
    server = await ScriptedLLMServer.start([{ text: 'Answered anyway.' }]);
    sandbox = await CliSandbox.create({ baseUrl: server.baseUrl });
    const mcp = JSON.stringify({
      mcpServers: { broken: { command: join(sandbox.root, 'no-such-server') } },
    });
    const result = await sandbox.run(['--print', '-p', 'hi', '--mcp-config', mcp]);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('Answered anyway.\n');
    expect(result.stderr).toMatch(/^MCP server broken: .+$/m);
  });
});
