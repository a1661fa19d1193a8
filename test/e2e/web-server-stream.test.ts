import { describe, expect, test } from 'vitest';
import { useScriptedCli } from '../support/scripted-cli.js';
import { startWebServer, type WebServerProcess, WebWireClient } from '../support/web-server-client.js';

const cli = useScriptedCli();

async function newSession(server: WebServerProcess, workDir: string): Promise<string> {
  const response = await server.api('/api/sessions', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ work_dir: workDir }),
  });
  expect(response.status).toBe(201);
  return ((await response.json()) as { session: { id: string } }).session.id;
}

const shellTurn = (id: string, command: string) => ({
  toolCalls: [{ id, name: 'Shell', args: { command } }],
});

describe('kimi-ts web: the session stream', () => {
  test('a turn with a tool call and an approval, over the WebSocket', async () => {
    const { sandbox } = await cli.setup([shellTurn('call-1', 'echo from-the-web'), { text: 'All done.' }]);
    const server = await startWebServer(sandbox);
    try {
      const id = await newSession(server, sandbox.workDir);
      const client = await WebWireClient.connect(server, id);
      const init = await client.request('initialize', {
        protocol_version: '1.10',
        capabilities: { supports_question: true },
      });
      expect(init.result).toMatchObject({ protocol_version: '1.10' });
      const prompt = client.request('prompt', { user_input: 'run it' });
      const approval = await client.agentRequest('ApprovalRequest');
      const payload = (approval.params as { payload: { id: string } }).payload;
      client.respond(approval.id, { request_id: payload.id, response: 'approve' });
      expect((await prompt).result).toEqual({ status: 'finished' });
      const types = client.streamTypes();
      expect(types[0]).toBe('TurnBegin');
      expect(types).toContain('ToolResult');
      expect(types.at(-1)).toBe('TurnEnd');
      const output = JSON.stringify(
        client.messages.filter((m) => (m.params as { type?: string })?.type === 'ToolResult'),
      );
      expect(output).toContain('from-the-web');
      await client.close();
    } finally {
      expect(await server.stop()).toBe(0);
    }
  });
});
