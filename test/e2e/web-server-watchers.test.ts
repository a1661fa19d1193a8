import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { collect } from '../support/run-cli.js';
import { useScriptedCli } from '../support/scripted-cli.js';
import {
  RefusedUpgrade,
  startWebServer,
  type WebServerProcess,
  WebWireClient,
} from '../support/web-server-client.js';
import type { JsonRpcMessage } from '../support/wire-process-client.js';

/** A session made with a chosen id: a full UUID (a short one must name an existing session). */
const HELD = '4e1dbe00-0000-4000-8000-00000000000f';

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

async function connected(server: WebServerProcess, id: string): Promise<WebWireClient> {
  const client = await WebWireClient.connect(server, id);
  await client.request('initialize', { protocol_version: '1.10' });
  return client;
}

/** Event and request frames as JSON text, in order: what a client saw of the session. */
const stream = (client: WebWireClient): string[] =>
  client.messages.filter((m) => m.method === 'event' || m.method === 'request').map((m) => JSON.stringify(m));

const approvalId = (request: JsonRpcMessage): string =>
  (request.params as { payload: { id: string } }).payload.id;

describe('kimi-ts web: several clients, reconnects, locks', () => {
  test('two clients watch one turn: the same frames in the same order; an approval is settled once', async () => {
    const { sandbox } = await cli.setup([
      { toolCalls: [{ id: 't1', name: 'Shell', args: { command: 'echo watched' } }] },
      { text: 'Watched and done.' },
    ]);
    const server = await startWebServer(sandbox);
    try {
      const id = await newSession(server, sandbox.workDir);
      const driver = await connected(server, id);
      const watcher = await connected(server, id);
      const prompt = driver.request('prompt', { user_input: 'go' });
      const [seenByDriver, seenByWatcher] = await Promise.all([
        driver.agentRequest('ApprovalRequest'),
        watcher.agentRequest('ApprovalRequest'),
      ]);
      expect(seenByWatcher.id).toBe(seenByDriver.id);
      // The watcher answers; the driver's later answer is ignored (settled once).
      watcher.respond(seenByWatcher.id, { request_id: approvalId(seenByWatcher), response: 'approve' });
      driver.respond(seenByDriver.id, { request_id: approvalId(seenByDriver), response: 'reject' });
      expect((await prompt).result).toEqual({ status: 'finished' });
      await watcher.event('TurnEnd');
      expect(stream(watcher)).toEqual(stream(driver));
      expect(JSON.stringify(watcher.messages)).toContain('watched');
      const responses = driver.streamTypes().filter((t) => t === 'ApprovalResponse');
      expect(responses).toHaveLength(1);
      await Promise.all([driver.close(), watcher.close()]);
    } finally {
      expect(await server.stop()).toBe(0);
    }
  });

  test('a tab closed mid-turn does not cancel it; reconnecting replays everything, then goes on live', async () => {
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const { sandbox } = await cli.setup([
      { think: 'thinking first', text: 'Part one, ', holdUntil: held },
      { text: 'never asked' },
    ]);
    const server = await startWebServer(sandbox);
    try {
      const id = await newSession(server, sandbox.workDir);
      const watcher = await connected(server, id);
      const tab = await connected(server, id);
      void tab.request('prompt', { user_input: 'long one' });
      await tab.waitFor((m) => JSON.stringify(m).includes('Part one'));
      await tab.close();
      const back = await WebWireClient.connect(server, id);
      await back.request('initialize', { protocol_version: '1.10' });
      const replay = await back.request('replay');
      expect(replay.result).toMatchObject({ status: 'finished' });
      const replayed = stream(back).length;
      expect(replayed).toBeGreaterThan(0);
      release();
      await Promise.all([watcher.event('TurnEnd'), back.event('TurnEnd')]);
      // Replay + live equals what a client attached all along saw: nothing missing, nothing twice.
      expect(stream(back)).toEqual(stream(watcher));
      await Promise.all([watcher.close(), back.close()]);
    } finally {
      await server.stop();
    }
    // A fresh server replays the finished turn from wire.jsonl, once.
    const again = await startWebServer(sandbox);
    try {
      const client = await WebWireClient.connect(again, (await sessionIds(again))[0]!);
      await client.request('replay');
      const types = client.streamTypes();
      expect(types.filter((t) => t === 'TurnBegin')).toHaveLength(1);
      expect(types.at(-1)).toBe('TurnEnd');
      expect(JSON.stringify(client.messages)).toContain('Part one');
      await client.close();
    } finally {
      await again.stop();
    }
  });

  test('a session far longer than the replay memory cap: a reconnect mid-turn still gets everything, once', async () => {
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const long = (n: number) => `Answer ${n}: ${'lorem ipsum '.repeat(250)}end ${n}.`;
    const { sandbox } = await cli.setup([
      { text: long(1) },
      { text: long(2) },
      { text: long(3) },
      { think: 'the fourth', text: 'Part four, ', holdUntil: held },
    ]);
    // 1000 bytes in memory per session: every answer above is three times that.
    const server = await startWebServer(sandbox, [], [], { KIMI_TS_WEB_REPLAY_MEMORY_BYTES: '1000' });
    try {
      const id = await newSession(server, sandbox.workDir);
      const watcher = await connected(server, id);
      const tab = await connected(server, id);
      for (const n of [1, 2, 3])
        expect((await tab.request('prompt', { user_input: `turn ${n}` })).result).toEqual({
          status: 'finished',
        });
      void tab.request('prompt', { user_input: 'turn 4' });
      await tab.waitFor((m) => JSON.stringify(m).includes('Part four'));
      await tab.close();
      const back = await connected(server, id);
      expect((await back.request('replay')).result).toMatchObject({ status: 'finished' });
      release();
      await back.waitFor(
        (m) =>
          m.method === 'event' &&
          JSON.stringify(m).includes('"TurnEnd"') &&
          stream(back).filter((t) => t.includes('"TurnEnd"')).length === 4,
      );
      await watcher.waitFor(() => stream(watcher).filter((t) => t.includes('"TurnEnd"')).length === 4);
      expect(stream(watcher).join('').length).toBeGreaterThan(9000);
      expect(stream(back)).toEqual(stream(watcher));
      for (const n of [1, 2, 3]) expect(stream(back).filter((t) => t.includes(`end ${n}.`))).toHaveLength(1);
      await Promise.all([watcher.close(), back.close()]);
    } finally {
      await server.stop();
    }
  });

  test('a session another process holds is refused with a clear error, and the other way round', async () => {
    const { sandbox } = await cli.setup([{ text: 'from the terminal' }, { text: 'from the web' }]);
    const terminal = sandbox.spawn(['--wire', '-S', HELD]);
    cli.defer(() => {
      if (terminal.exitCode === null) terminal.kill('SIGKILL');
    });
    terminal.stdin!.write(
      `${JSON.stringify({ jsonrpc: '2.0', id: '1', method: 'prompt', params: { user_input: 'hi' } })}\n`,
    );
    await new Promise<void>((resolve) => {
      let out = '';
      terminal.stdout!.setEncoding('utf8').on('data', (d: string) => {
        out += d;
        if (out.includes('"status":"finished"')) resolve();
      });
    });
    const server = await startWebServer(sandbox);
    try {
      const refused = await WebWireClient.connect(server, HELD).then(
        () => null,
        (e: unknown) => e,
      );
      expect(refused).toBeInstanceOf(RefusedUpgrade);
      expect((refused as RefusedUpgrade).status).toBe(409);
      expect((refused as RefusedUpgrade).body).toMatch(/session_locked.*in use by another kimi-ts process/);
      terminal.stdin!.end();
      await new Promise((resolve) => terminal.on('close', resolve));
      // Now free: the web opens it; a terminal is then refused.
      const client = await connected(server, HELD);
      const second = await collect(sandbox.spawn(['-S', HELD, '-p', 'hello']));
      expect(second.code).toBe(1);
      expect(second.stderr).toMatch(/in use by another kimi-ts process/);
      await client.close();
    } finally {
      await server.stop();
    }
  });

  test('a tool output holding a secret never reaches a WebSocket frame unredacted', async () => {
    const { sandbox } = await cli.setup([
      { toolCalls: [{ id: 's1', name: 'Shell', args: { command: 'cat leaked.txt' } }] },
      { text: 'read it' },
    ]);
    await writeFile(join(sandbox.workDir, 'leaked.txt'), 'the key is sk-e2e-test-key, keep it\n');
    const server = await startWebServer(sandbox);
    try {
      const id = await newSession(server, sandbox.workDir);
      const client = await connected(server, id);
      const prompt = client.request('prompt', { user_input: 'read the file' });
      const approval = await client.agentRequest('ApprovalRequest');
      client.respond(approval.id, { request_id: approvalId(approval), response: 'approve' });
      expect((await prompt).result).toEqual({ status: 'finished' });
      const late = await WebWireClient.connect(server, id);
      await late.request('replay');
      for (const c of [client, late]) {
        const frames = JSON.stringify(c.messages);
        expect(frames).toContain('the key is');
        expect(frames).not.toContain('sk-e2e-test-key');
      }
      await Promise.all([client.close(), late.close()]);
    } finally {
      await server.stop();
    }
  });
});

async function sessionIds(server: WebServerProcess): Promise<string[]> {
  const response = await server.api('/api/sessions');
  return ((await response.json()) as { sessions: { id: string }[] }).sessions.map((s) => s.id);
}
