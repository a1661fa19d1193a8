import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useScriptedCli } from '../support/scripted-cli.js';

const cli = useScriptedCli();

describe('warnings of a session', () => {
  it('reach stderr through the command line while the run goes on (an MCP server that cannot start)', async () => {
    const { sandbox } = await cli.setup([{ text: 'Answered anyway.' }]);
    const mcp = JSON.stringify({
      mcpServers: { broken: { command: join(sandbox.root, 'no-such-server') } },
    });
    const result = await sandbox.run(['--print', '-p', 'hi', '--mcp-config', mcp]);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('Answered anyway.\n');
    expect(result.stderr).toMatch(/^MCP server broken: .+$/m);
  });
});
