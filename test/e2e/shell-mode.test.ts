import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CliSandbox } from '../support/run-cli.js';
import { ScriptedLLMServer, type ScriptedTurn } from '../support/scripted-llm-server.js';

let server: ScriptedLLMServer;
let sandbox: CliSandbox;

async function setup(turns: ScriptedTurn[]) {
  server = await ScriptedLLMServer.start(turns);
  sandbox = await CliSandbox.create({ baseUrl: server.baseUrl });
}

afterEach(async () => {
  await server?.close();
  await sandbox?.remove();
});

describe('interactive shell (line mode)', () => {
  it('runs a turn per line and asks before side effects', async () => {
    await setup([
      { toolCalls: [{ id: 's1', name: 'Shell', args: { command: 'touch approved.txt' } }] },
      { text: 'Created it.' },
      { toolCalls: [{ id: 's2', name: 'Shell', args: { command: 'touch rejected.txt' } }] },
    ]);
    const result = await sandbox.run([], {
      input: 'make the first file\ny\nmake the second file\nn\n/exit\n',
    });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('• Shell touch approved.txt');
    expect(result.stdout).toContain('Allow run command? Run command `touch approved.txt`');
    expect(result.stdout).toContain('Created it.');
    expect(existsSync(join(sandbox.workDir, 'approved.txt'))).toBe(true);
    // The rejection ends the turn: no third model call, no file.
    expect(existsSync(join(sandbox.workDir, 'rejected.txt'))).toBe(false);
    expect(server.requests).toHaveLength(3);
  });

  it('passes rejection feedback to the model', async () => {
    await setup([
      { toolCalls: [{ id: 's1', name: 'Shell', args: { command: 'rm -rf build' } }] },
      { text: 'Understood, keeping the build folder.' },
    ]);
    const result = await sandbox.run([], { input: 'clean up\nkeep the build folder please\n' });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Understood, keeping the build folder.');
    expect(JSON.stringify(server.requests[1]?.body)).toContain('keep the build folder please');
  });
});
