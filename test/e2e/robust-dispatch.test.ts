import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { gate } from '../support/loopback-server.js';
import { collect } from '../support/run-cli.js';
import { useScriptedCli } from '../support/scripted-cli.js';
import { type JsonRpcMessage, WireClient } from '../support/wire-process-client.js';

const cli = useScriptedCli();

const eventType = (m: JsonRpcMessage): string =>
  m.method === 'event' ? (m.params as { type: string }).type : `${m.method ?? 'response'}`;

describe('tools start the moment their arguments are complete', () => {
  it('runs a read-only call while the stream is still open', async () => {
    const endOfStream = gate();
    const { server, sandbox } = await cli.setup([
      {
        toolCalls: [{ id: 'read', name: 'ReadFile', args: { path: 'notes.txt' } }],
        argumentFragments: 5,
        holdAfterToolCalls: endOfStream.promise,
      },
      { text: 'Read it.' },
    ]);
    await writeFile(join(sandbox.workDir, 'notes.txt'), 'the notes\n');
    const child = sandbox.spawn(['--wire']);
    const client = new WireClient(child);
    await client.request('initialize', { protocol_version: '1.10' });
    const prompt = client.request('prompt', { user_input: 'read the notes' });
    // The stream is held open after the last argument fragment; the result arrives all the same.
    const result = await client.event('ToolResult');
    expect(JSON.stringify(result.params)).toContain('the notes');
    expect(server.requests).toHaveLength(1);
    endOfStream.open();
    expect((await prompt).result).toEqual({ status: 'finished' });
    child.stdin!.end();
    expect((await collect(child)).code).toBe(0);
  });

  it('asks approval for a side-effecting call while the stream is open, and runs it only after a clean end', async () => {
    const endOfStream = gate();
    const { sandbox } = await cli.setup([
      {
        toolCalls: [{ id: 'touch', name: 'Shell', args: { command: 'touch made-by-shell' } }],
        holdAfterToolCalls: endOfStream.promise,
      },
      { text: 'Done.' },
    ]);
    const child = sandbox.spawn(['--wire']);
    const client = new WireClient(child);
    await client.request('initialize', { protocol_version: '1.10' });
    const prompt = client.request('prompt', { user_input: 'touch it' });
    const approval = await client.waitFor((m) => m.method === 'request');
    const order = client.messages.filter((m) => m.method !== undefined).map(eventType);
    expect(order.indexOf('ToolCall')).toBeGreaterThanOrEqual(0);
    expect(order.indexOf('ToolCall')).toBeLessThan(order.indexOf('request'));
    expect(order).not.toContain('ToolResult');
    const payload = (approval.params as { payload: { id: string } }).payload;
    client.send({ jsonrpc: '2.0', id: approval.id, result: { request_id: payload.id, response: 'approve' } });
    // Approved, but the model has not finished its answer: the command waits for the stream.
    await client.request('initialize', { protocol_version: '1.10' }).catch(() => undefined);
    expect(existsSync(join(sandbox.workDir, 'made-by-shell'))).toBe(false);
    endOfStream.open();
    expect((await prompt).result).toEqual({ status: 'finished' });
    expect(existsSync(join(sandbox.workDir, 'made-by-shell'))).toBe(true);
    child.stdin!.end();
    expect((await collect(child)).code).toBe(0);
  });

  it('gives a call with broken-JSON arguments its error result at finish_reason, while the stream is still open', async () => {
    const endOfStream = gate();
    const { server, sandbox } = await cli.setup([
      {
        toolCalls: [{ id: 'broken', name: 'ReadFile', rawArgs: '{"path": "notes.txt", "line_offset": ' }],
        holdAfterFinish: endOfStream.promise,
      },
      { text: 'I will fix the arguments.' },
    ]);
    const child = sandbox.spawn(['--wire']);
    const client = new WireClient(child);
    await client.request('initialize', { protocol_version: '1.10' });
    const prompt = client.request('prompt', { user_input: 'read the notes' });
    // The provider said the arguments are done: the error comes now, not when the stream ends.
    const result = await client.event('ToolResult');
    expect(JSON.stringify(result.params)).toMatch(/broken|invalid|parse|JSON/i);
    expect(server.requests).toHaveLength(1);
    endOfStream.open();
    expect((await prompt).result).toEqual({ status: 'finished' });
    child.stdin!.end();
    expect((await collect(child)).code).toBe(0);
  });

  it('withdraws an early approval request when the stream is then cut, and never runs the call', async () => {
    const endOfStream = gate();
    const { server, sandbox } = await cli.setup([
      {
        toolCalls: [{ id: 'touch', name: 'Shell', args: { command: 'touch made-by-shell' } }],
        holdAfterToolCalls: endOfStream.promise,
        cutAfterToolCalls: true,
      },
      { text: 'Retried, nothing to run.' },
    ]);
    const child = sandbox.spawn(['--wire']);
    const client = new WireClient(child);
    await client.request('initialize', { protocol_version: '1.10' });
    const prompt = client.request('prompt', { user_input: 'touch it' });
    await client.waitFor((m) => m.method === 'request');
    endOfStream.open(); // nobody answers the approval: the cut must release it
    expect((await prompt).result).toEqual({ status: 'finished' });
    expect(existsSync(join(sandbox.workDir, 'made-by-shell'))).toBe(false);
    expect(server.requests).toHaveLength(2);
    child.stdin!.end();
    expect((await collect(child)).code).toBe(0);
  });
});
