import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { askWireHook } from '../../hooks/index.js';
import { ScriptedSession } from '../common/test-support/scripted-turn-session.js';
import { envelopeOf, TestWireClient } from './test-support/in-memory-wire-client.js';

let dir: string;
let session: ScriptedSession;
let client: TestWireClient;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'kimi-ts-wire-server-'));
  session = new ScriptedSession(dir, join(dir, 'wire.jsonl'));
});
afterEach(async () => {
  await client?.close();
  expect(client?.badLines ?? []).toEqual([]);
  await rm(dir, { recursive: true, force: true });
});

function start(options: { maxLineBytes?: number } = {}): TestWireClient {
  client = new TestWireClient(session, options);
  return client;
}

/** The error responses with a null id, in order. */
const nullIdErrors = (c: TestWireClient) =>
  c.messages.filter((m) => m.id === null && 'error' in m).map((m) => (m.error as { code: number }).code);

describe('framing and standard errors', () => {
  test('malformed lines get -32700 / -32600 with id null, and the server keeps serving', async () => {
    const c = start();
    c.write('{not json\n');
    c.write('[1,2]\n');
    c.write('42\n');
    c.write('{"id":"x","method":"prompt"}\n'); // no jsonrpc
    c.write('\n   \n');
    const answered = await c.request('cancel');
    expect(nullIdErrors(c)).toEqual([-32700, -32600, -32600]);
    const noVersion = c.messages.find((m) => m.id === 'x');
    expect(noVersion?.error).toMatchObject({ code: -32600 });
    expect(answered.error).toMatchObject({ code: -32000, message: 'No agent turn is in progress' });
  });

  test('a request with a non-string id is invalid; its id is echoed when it can be', async () => {
    const c = start();
    c.send({ jsonrpc: '2.0', method: 'cancel', id: 7 });
    c.send({ jsonrpc: '2.0', method: 'cancel', id: null });
    const done = await c.request('cancel');
    expect(done.error).toMatchObject({ code: -32000 });
    expect(c.messages.find((m) => m.id === 7)?.error).toMatchObject({ code: -32600 });
    expect(nullIdErrors(c)).toEqual([-32600]);
  });

  test('a notification (no id) is run and never answered; its failure goes to stderr', async () => {
    const c = start();
    c.send({ jsonrpc: '2.0', method: 'cancel' });
    c.send({ jsonrpc: '2.0', method: 'frobnicate', params: {} });
    const done = await c.request('cancel');
    expect(done.error).toMatchObject({ code: -32000 });
    // The only answer is the one to the request with an id.
    expect(c.messages).toHaveLength(1);
    expect(c.stderr).toContain(
      'wire: notification `cancel` (no id, so no reply) failed: No agent turn is in progress',
    );
    expect(c.stderr).toContain(
      'wire: notification `frobnicate` (no id, so no reply) failed: Unexpected method received',
    );
  });

  test('unknown methods get -32601 and bad params -32602 naming the field', async () => {
    const c = start();
    expect((await c.request('frobnicate', {})).error).toEqual({
      code: -32601,
      message: 'Unexpected method received: frobnicate',
    });
    expect((await c.request('event', {})).error).toMatchObject({ code: -32601 });
    const badPrompt = await c.request('prompt', { user_input: 42 });
    expect(badPrompt.error).toMatchObject({ code: -32602 });
    expect((badPrompt.error as { message: string }).message).toMatch(/`prompt`.*user_input/);
    expect((await c.request('prompt')).error).toMatchObject({ code: -32602 });
    expect((await c.request('set_plan_mode', { enabled: 'yes' })).error).toMatchObject({ code: -32602 });
    expect((await c.request('initialize', { protocol_version: 1 })).error).toMatchObject({ code: -32602 });
    expect((await c.request('replay', [1])).error).toMatchObject({ code: -32602 });
  });

  test('lines split across chunks (even inside a UTF-8 character) and CRLF endings are read whole', async () => {
    const c = start();
    const seen: unknown[] = [];
    session.script = async (turn) => {
      seen.push(turn.input);
    };
    const line = Buffer.from(
      `${JSON.stringify({ jsonrpc: '2.0', method: 'prompt', id: 'p', params: { user_input: 'héllo 世界' } })}\r\n`,
    );
    const response = c.waitFor((m) => m.id === 'p');
    for (let i = 0; i < line.length; i++) c.input.write(line.subarray(i, i + 1));
    expect((await response).result).toEqual({ status: 'finished' });
    expect(seen).toEqual(['héllo 世界']);
  });

  test('a line past the size limit is skipped with -32700, the next line is served', async () => {
    const c = start({ maxLineBytes: 64 });
    c.write(`{"jsonrpc":"2.0","method":"cancel","id":"${'x'.repeat(100)}"}\n`);
    const next = await c.request('cancel');
    expect(next.error).toMatchObject({ code: -32000 });
    expect(nullIdErrors(c)).toEqual([-32700]);
  });

  test('responses to unknown ids and malformed responses never crash the server', async () => {
    const c = start();
    c.respond('nobody-asked', { anything: true });
    c.send({ jsonrpc: '2.0', id: 'r', result: 1, error: { code: 1, message: 'both' } });
    expect((await c.request('cancel')).error).toMatchObject({ code: -32000 });
    expect(nullIdErrors(c)).toEqual([]);
    expect(c.messages.find((m) => m.id === 'r')?.error).toMatchObject({ code: -32600 });
  });
});

describe('initialize', () => {
  test('answers with protocol, server, slash commands, external tools, hooks and capabilities', async () => {
    const c = start();
    const response = await c.request('initialize', {
      protocol_version: '1.10',
      client: { name: 'test-ui', version: '1.0' },
      external_tools: [
        { name: 'open_in_ide', description: 'Open a file', parameters: { type: 'object', properties: {} } },
        { name: 'Shell', description: 'Mine', parameters: { type: 'object' } },
      ],
      hooks: [
        { id: 'h1', event: 'PreToolUse', matcher: 'Shell' },
        { id: 'h2', event: 'NoSuchEvent' },
      ],
      capabilities: { supports_question: true },
    });
    expect(response.result).toMatchObject({
      protocol_version: '1.10',
      server: { name: 'kimi-ts' },
      slash_commands: [
        { name: 'compact', description: 'Compact the context', aliases: [] },
        { name: 'clear', description: 'Clear the context', aliases: ['reset'] },
      ],
      external_tools: {
        accepted: ['open_in_ide'],
        rejected: [{ name: 'Shell', reason: 'conflicts with builtin tool' }],
      },
      hooks: { configured: { PreToolUse: 2, Stop: 1 } },
      capabilities: { supports_question: true },
    });
    const result = response.result as { hooks: { supported_events: string[] }; server: { version: string } };
    expect(result.hooks.supported_events).toHaveLength(13);
    expect(result.server.version).toMatch(/^\d+\.\d+\.\d+/);
    expect(session.externalTools.map((t) => t.name)).toEqual(['open_in_ide']);
    expect(session.hookSubscriptions).toEqual([
      { id: 'h1', event: 'PreToolUse', matcher: 'Shell', timeout: 30 },
    ]);
    expect([...session.hidden].sort()).toEqual(['EnterPlanMode', 'ExitPlanMode']);
  });

  test('client-dependent tools are hidden until the client declares support', async () => {
    const c = start();
    await c.request('cancel'); // the server has started
    expect([...session.hidden].sort()).toEqual(['AskUserQuestion', 'EnterPlanMode', 'ExitPlanMode']);
    const plain = await c.request('initialize', { protocol_version: '1.10' });
    expect(plain.result).not.toHaveProperty('external_tools');
    expect(session.hidden.size).toBe(3);
    await c.request('initialize', {
      protocol_version: '1.10',
      capabilities: { supports_question: true, supports_plan_mode: true },
    });
    expect(session.hidden.size).toBe(0);
  });

  test('an invalid hook subscription is a params error', async () => {
    const c = start();
    const response = await c.request('initialize', {
      protocol_version: '1.10',
      hooks: [{ id: 'h', event: 'Stop', timeout: 10_000 }],
    });
    expect(response.error).toMatchObject({ code: -32602 });
  });

  test('subscribed hooks ask the client with a HookRequest and take its HookResponse', async () => {
    const c = start();
    await c.request('initialize', {
      protocol_version: '1.10',
      hooks: [{ id: 'sub-1', event: 'PreToolUse' }],
    });
    const askClient = session.askClient!;
    const question = {
      subscription_id: 'sub-1',
      event: 'PreToolUse' as const,
      target: 'Shell',
      input_data: { tool_name: 'Shell', tool_input: { command: 'rm -rf /' } },
    };

    const blocked = askWireHook(askClient, question, 30_000, undefined);
    const request = await c.waitForRequest('HookRequest');
    expect(envelopeOf(request).payload).toMatchObject({
      id: request.id,
      subscription_id: 'sub-1',
      event: 'PreToolUse',
      target: 'Shell',
      input_data: question.input_data,
    });
    c.respond(request.id, { request_id: request.id, action: 'block', reason: 'too dangerous' });
    expect(await blocked).toMatchObject({ action: 'block', reason: 'too dangerous' });

    const errored = askWireHook(askClient, question, 30_000, undefined);
    const second = await c.waitFor((m) => m.method === 'request' && m.id !== request.id);
    c.respondError(second.id, -1, 'client failure');
    expect(await errored).toMatchObject({ action: 'allow' });
  });

  test('a hook question that times out is withdrawn; a late answer is ignored', async () => {
    const c = start();
    await c.request('initialize', { protocol_version: '1.10', hooks: [{ id: 's', event: 'Stop' }] });
    const controller = new AbortController();
    const asked = session.askClient!(
      { subscription_id: 's', event: 'Stop', target: '', input_data: {} },
      controller.signal,
    );
    const request = await c.waitForRequest('HookRequest');
    controller.abort(new Error('timed out'));
    await expect(asked).rejects.toThrow('timed out');
    c.respond(request.id, { request_id: request.id, action: 'block', reason: 'late' });
    expect((await c.request('cancel')).error).toMatchObject({ code: -32000 });
  });
});

describe('set_plan_mode', () => {
  test('switches plan mode and sends a StatusUpdate before the answer', async () => {
    const c = start();
    const response = await c.request('set_plan_mode', { enabled: true });
    expect(response.result).toEqual({ status: 'ok', plan_mode: true });
    const status = c.events().find((e) => e.type === 'StatusUpdate');
    expect(status?.payload).toMatchObject({ plan_mode: true, context_usage: null });
    expect(c.messages.indexOf(c.messages.find((m) => m.method === 'event')!)).toBeLessThan(
      c.messages.indexOf(response),
    );
    expect(session.planMode).toBe(true);
    expect((await c.request('set_plan_mode', { enabled: false })).result).toEqual({
      status: 'ok',
      plan_mode: false,
    });
  });
});

describe('shutdown', () => {
  test('EOF with nothing running resolves with exit code 0', async () => {
    const c = start();
    await c.request('initialize', { protocol_version: '1.10' });
    expect(await c.close()).toBe(0);
  });

  test('aborting the signal stops the server with exit code 0 and stops reading', async () => {
    const controller = new AbortController();
    client = new TestWireClient(session, { signal: controller.signal });
    await client.request('initialize', { protocol_version: '1.10' });
    controller.abort();
    expect(await client.exitCode).toBe(0);
    const before = client.messages.length;
    client.send({ jsonrpc: '2.0', method: 'cancel', id: 'late' });
    await new Promise((resolve) => setImmediate(resolve));
    expect(client.messages.length).toBe(before);
  });

  test('a client that stops reading (output closed) ends the server', async () => {
    const c = start();
    await c.request('initialize', { protocol_version: '1.10' });
    c.output.destroy();
    c.send({ jsonrpc: '2.0', method: 'cancel', id: 'unheard' });
    expect(await c.exitCode).toBe(0);
  });

  test('a failing input stream ends the server with exit code 1', async () => {
    const c = start();
    await c.request('initialize', { protocol_version: '1.10' });
    c.input.destroy(new Error('broken pipe'));
    expect(await c.exitCode).toBe(1);
  });
});
