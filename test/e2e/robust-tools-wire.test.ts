import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { collect } from '../support/run-cli.js';
import { useScriptedCli } from '../support/scripted-cli.js';
import { WireClient } from '../support/wire-process-client.js';

const cli = useScriptedCli();

describe('wire mode with clients that bend JSON-RPC', () => {
  it('a notification gets no reply; an unknown approval answer rejects, and stderr says why', async () => {
    const { sandbox } = await cli.setup([
      { toolCalls: [{ id: 'c1', name: 'Shell', args: { command: 'echo touched > touched.txt' } }] },
      { text: 'It was rejected.' },
    ]);
    const child = sandbox.spawn(['--wire']);
    const client = new WireClient(child);
    await client.request('initialize', { protocol_version: '1.10' });
    // A notification: JSON-RPC 2.0 says the server must not reply to it.
    client.send({ jsonrpc: '2.0', method: 'cancel' });
    const prompt = client.request('prompt', { user_input: 'touch the file' });
    const approval = await client.waitFor((m) => m.method === 'request');
    const request = approval.params as { type: string; payload: { id: string } };
    expect(request.type).toBe('ApprovalRequest');
    client.send({
      jsonrpc: '2.0',
      id: approval.id,
      result: { request_id: request.payload.id, response: 'yes' },
    });
    expect((await prompt).result).toEqual({ status: 'finished' });
    child.stdin!.end();
    const result = await collect(child);
    expect(result.code).toBe(0);

    // Every reply answers a request that had an id: nothing answered the notification.
    const replies = client.messages.filter((m) => m.method === undefined);
    expect(replies.map((m) => m.id)).toEqual(['c1', 'c2']);
    expect(result.stderr).toContain('notification `cancel` (no id, so no reply) failed');
    expect(result.stderr).toContain(`approval request ${request.payload.id} is taken as rejected`);
    expect(result.stderr).toContain('not one of approve, approve_for_session, reject');
    // The rejection stopped the turn: the command never ran.
    const toolResult = client.messages.find(
      (m) => m.method === 'event' && (m.params as { type: string }).type === 'ToolResult',
    );
    expect(JSON.stringify(toolResult?.params)).toMatch(/reject/i);
    expect(existsSync(join(sandbox.workDir, 'touched.txt'))).toBe(false);
  });
});
