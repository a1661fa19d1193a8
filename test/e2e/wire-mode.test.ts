import { describe, expect, it } from 'vitest';
import { BACKGROUND_COMMAND, backgroundAgentScenario } from '../support/background-agent-scenario.js';
import { gate } from '../support/loopback-server.js';
import { collect } from '../support/run-cli.js';
import { useScriptedCli } from '../support/scripted-cli.js';
import { WireClient } from '../support/wire-process-client.js';

const cli = useScriptedCli();

const requestsArrived = (count: number) => cli.server.waitForRequests(count);

describe('wire mode', () => {
  it('initializes, runs a prompt and streams its events', async () => {
    const { sandbox } = await cli.setup([{ text: 'Hello over the wire.' }]);
    const child = sandbox.spawn(['--wire']);
    const client = new WireClient(child);
    const init = await client.request('initialize', {
      protocol_version: '1.10',
      client: { name: 'test', version: '0' },
    });
    expect(init.result).toMatchObject({ protocol_version: '1.10', server: { name: 'kimi-ts' } });
    const slash = (init.result as { slash_commands: { name: string }[] }).slash_commands.map((c) => c.name);
    expect(slash).toEqual(expect.arrayContaining(['help', 'clear', 'compact', 'yolo', 'init', 'title']));

    const prompt = await client.request('prompt', { user_input: 'hi' });
    expect(prompt.result).toEqual({ status: 'finished' });
    const types = client.eventTypes();
    expect(types[0]).toBe('TurnBegin');
    expect(types).toContain('StepBegin');
    expect(types).toContain('ContentPart');
    expect(types).toContain('StatusUpdate');
    expect(types.at(-1)).toBe('TurnEnd');
    child.stdin!.end();
    expect((await collect(child)).code).toBe(0);
  });

  it('answers malformed lines with JSON-RPC errors and keeps going', async () => {
    const { sandbox } = await cli.setup([]);
    const child = sandbox.spawn(['--wire']);
    const client = new WireClient(child);
    child.stdin!.write('{not json\n');
    const parseError = await client.waitFor((m) => m.error?.code === -32700);
    expect(parseError.id).toBeNull();
    const unknown = await client.request('no_such_method');
    expect(unknown.error?.code).toBe(-32601);
    const steer = await client.request('steer', { user_input: 'x' });
    expect(steer.error?.code).toBe(-32000);
    child.stdin!.end();
    expect((await collect(child)).code).toBe(0);
  });

  it('steers a running turn: the steer becomes one more step', async () => {
    const release = gate();
    const { server, sandbox } = await cli.setup([
      { text: 'working on it', holdUntil: release.promise },
      { text: 'took your note into account' },
    ]);
    const child = sandbox.spawn(['--wire']);
    const client = new WireClient(child);
    await client.request('initialize', { protocol_version: '1.10' });
    const prompt = client.request('prompt', { user_input: 'start' });
    await requestsArrived(1);
    const steer = await client.request('steer', { user_input: 'also mention the tests' });
    expect(steer.result).toEqual({ status: 'steered' });
    release.open();
    expect((await prompt).result).toEqual({ status: 'finished' });
    expect(client.eventTypes()).toContain('SteerInput');
    expect(JSON.stringify(server.requests[1]?.body)).toContain('also mention the tests');
    child.stdin!.end();
    await collect(child);
  });

  it('cancels a running turn', async () => {
    const never = gate();
    const { sandbox } = await cli.setup([{ text: 'this will be cut', holdUntil: never.promise }]);
    const child = sandbox.spawn(['--wire']);
    const client = new WireClient(child);
    const prompt = client.request('prompt', { user_input: 'long job' });
    await requestsArrived(1);
    const cancel = await client.request('cancel');
    expect(cancel.result).toEqual({});
    expect((await prompt).result).toEqual({ status: 'cancelled' });
    expect(client.eventTypes().at(-1)).toBe('TurnEnd');
    child.stdin!.end();
    expect((await collect(child)).code).toBe(0);
    never.open();
  });
});

describe('crash safety', () => {
  it('kill -9 in the middle of a turn, then --continue loads the session', async () => {
    const never = gate();
    const { server, sandbox } = await cli.setup([
      { text: 'half an answer', holdUntil: never.promise },
      { text: 'resumed fine' },
    ]);
    const child = sandbox.spawn(['--print', '-p', 'remember the word pineapple']);
    await requestsArrived(1);
    child.kill('SIGKILL');
    await collect(child);
    never.open();
    const resumed = await sandbox.run(['--print', '-C', '-p', 'what was the word?']);
    expect(resumed.code).toBe(0);
    expect(resumed.stdout).toContain('resumed fine');
    const history = JSON.stringify(server.requests[1]?.body);
    expect(history).toContain('remember the word pineapple');
    expect(history).toContain('what was the word?');
  });
});

describe('wire mode with a long tool', () => {
  it('asks the client for approval, then steers and cancels during a long Shell command', async () => {
    const marker = `kimi-ts-e2e-${process.pid}-${Date.now()}`;
    const { sandbox } = await cli.setup([
      {
        toolCalls: [
          {
            id: 'long',
            name: 'Shell',
            args: { command: `echo started > started.fifo; sleep 120; echo ${marker}`, timeout: 200 },
          },
        ],
      },
    ]);
    // The command tells the test it runs by writing into a FIFO the test is reading.
    const { execFileSync } = await import('node:child_process');
    const { readFile } = await import('node:fs/promises');
    const { join } = await import('node:path');
    execFileSync('mkfifo', [join(sandbox.workDir, 'started.fifo')]);
    const started = readFile(join(sandbox.workDir, 'started.fifo'), 'utf8');
    const child = sandbox.spawn(['--wire', '--max-steps-per-turn', '5']);
    const client = new WireClient(child);
    await client.request('initialize', { protocol_version: '1.10' });
    const prompt = client.request('prompt', { user_input: 'run the long job' });
    const approval = await client.waitFor((m) => m.method === 'request');
    const request = approval.params as {
      type: string;
      payload: { id: string; action: string; description: string };
    };
    expect(request.type).toBe('ApprovalRequest');
    expect(request.payload.action).toBe('run command');
    expect(request.payload.description).toContain(marker);
    client.send({
      jsonrpc: '2.0',
      id: approval.id,
      result: { request_id: request.payload.id, response: 'approve' },
    });

    const running = () => {
      try {
        return execFileSync('pgrep', ['-f', marker], { encoding: 'utf8' }).trim().split('\n').filter(Boolean);
      } catch {
        return [];
      }
    };
    expect(await started).toBe('started\n');
    expect(running().length).toBeGreaterThan(0);

    const steer = await client.request('steer', { user_input: 'hurry up' });
    expect(steer.result).toEqual({ status: 'steered' });
    const cancel = await client.request('cancel');
    expect(cancel.result).toEqual({});
    expect((await prompt).result).toEqual({ status: 'cancelled' });
    expect(running()).toEqual([]);
    child.stdin!.end();
    expect((await collect(child)).code).toBe(0);
  });
});

describe('approval scope over the wire', () => {
  it('remembers an exact approval for the project when the client asks, and asks again for another command', async () => {
    const { sandbox } = await cli.setup([
      { toolCalls: [{ id: 'a1', name: 'Shell', args: { command: 'echo approved-once' } }] },
      { text: 'first session done' },
      { toolCalls: [{ id: 'a2', name: 'Shell', args: { command: 'echo approved-once' } }] },
      { toolCalls: [{ id: 'a3', name: 'Shell', args: { command: 'echo something-else' } }] },
      { text: 'second session done' },
    ]);
    const first = new WireClient(sandbox.spawn(['--wire']));
    const prompt1 = first.request('prompt', { user_input: 'run it' });
    const ask1 = await first.waitFor((m) => m.method === 'request');
    const req1 = (ask1.params as { payload: { id: string } }).payload;
    first.send({
      jsonrpc: '2.0',
      id: ask1.id,
      result: { request_id: req1.id, response: 'approve_for_session', scope: 'exact', persist: true },
    });
    expect((await prompt1).result).toEqual({ status: 'finished' });
    first.child.stdin!.end();
    await collect(first.child);

    // A new process and a new session of the same project: the same command runs without asking.
    const second = new WireClient(sandbox.spawn(['--wire']));
    const prompt2 = second.request('prompt', { user_input: 'run both' });
    const ask2 = await second.waitFor((m) => m.method === 'request');
    const req2 = (ask2.params as { payload: { id: string; description: string } }).payload;
    expect(req2.description).toContain('something-else');
    second.send({ jsonrpc: '2.0', id: ask2.id, result: { request_id: req2.id, response: 'approve' } });
    expect((await prompt2).result).toEqual({ status: 'finished' });
    expect(second.messages.filter((m) => m.method === 'request')).toHaveLength(1);
    second.child.stdin!.end();
    await collect(second.child);
  });
});

describe('a background agent between turns', () => {
  it('asks the wire client for approval while no prompt runs, and its report reaches a later turn', async () => {
    const scenario = await backgroundAgentScenario();
    try {
      const client = new WireClient(scenario.sandbox.spawn(['--wire']));
      await client.request('initialize', { protocol_version: '1.10' });
      expect((await client.request('prompt', { user_input: 'start it' })).result).toEqual({
        status: 'finished',
      });
      scenario.releaseWorker();

      // No prompt is running: the approval still reaches the client.
      const ask = await client.waitFor((m) => m.method === 'request');
      const payload = (ask.params as { payload: Record<string, unknown> }).payload;
      expect(payload).toMatchObject({ source_kind: 'background_agent', subagent_type: 'coder' });
      expect(String(payload.description)).toContain(BACKGROUND_COMMAND);
      client.send({ jsonrpc: '2.0', id: ask.id, result: { request_id: payload.id, response: 'approve' } });
      const answered = await client.waitFor((m) => {
        const envelope = m.params as { type?: string; payload?: { request_id?: string } } | undefined;
        return (
          m.method === 'event' &&
          envelope?.type === 'ApprovalResponse' &&
          envelope.payload?.request_id === payload.id
        );
      });
      expect((answered.params as { payload: unknown }).payload).toMatchObject({ response: 'approve' });

      // The subagent ran the command and reported: a next turn waits for its task and reads the report.
      scenario.pushWaitForTask();
      expect((await client.request('prompt', { user_input: 'how did it go?' })).result).toEqual({
        status: 'finished',
      });
      expect(JSON.stringify(scenario.worker.requests[2]?.body)).toContain('from-the-background');
      const taskOutput = JSON.stringify(scenario.root.requests.at(-1)?.body);
      expect(taskOutput).toContain('status: completed');
      expect(taskOutput).toContain('Report: ran the command.');
      client.child.stdin!.end();
      expect((await collect(client.child)).code).toBe(0);
    } finally {
      await scenario.close();
    }
  });
});
