import { execFileSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { collect } from '../support/run-cli.js';
import { useScriptedCli } from '../support/scripted-cli.js';
import { WireClient } from '../support/wire-process-client.js';

const cli = useScriptedCli();

interface ApiMessage {
  role: string;
  content?: unknown;
  tool_calls?: { id: string }[];
  tool_call_id?: string;
}

const messagesOf = (request: number): ApiMessage[] =>
  (cli.server.requests[request]!.body as { messages: ApiMessage[] }).messages;

const textOf = (m: ApiMessage): string =>
  typeof m.content === 'string' ? m.content : JSON.stringify(m.content ?? '');

describe('the conversation after a cancel', () => {
  it('records the interrupted step: its calls, the finished result, and "interrupted" for the rest', async () => {
    const { sandbox } = await cli.setup([
      {
        text: 'Running both.',
        toolCalls: [
          { id: 'quick', name: 'Shell', args: { command: 'echo quick-output' } },
          { id: 'long', name: 'Shell', args: { command: 'echo started > started.fifo; sleep 120' } },
        ],
      },
      { text: 'Yes, still here.' },
    ]);
    execFileSync('mkfifo', [join(sandbox.workDir, 'started.fifo')]);
    const started = readFile(join(sandbox.workDir, 'started.fifo'), 'utf8');
    const child = sandbox.spawn(['--wire', '--yolo']);
    const client = new WireClient(child);
    await client.request('initialize', { protocol_version: '1.10' });
    const first = client.request('prompt', { user_input: 'first request: run the long thing' });
    expect(await started).toBe('started\n');
    await client.waitFor((m) => {
      const event = m.params as { type?: string; payload?: { tool_call_id?: string } } | undefined;
      return m.method === 'event' && event?.type === 'ToolResult' && event.payload?.tool_call_id === 'quick';
    });
    expect((await client.request('cancel')).result).toEqual({});
    expect((await first).result).toEqual({ status: 'cancelled' });

    const second = await client.request('prompt', { user_input: 'second request: are you still there?' });
    expect(second.result).toEqual({ status: 'finished' });
    child.stdin!.end();
    expect((await collect(child)).code).toBe(0);

    const sent = messagesOf(1).filter((m) => m.role !== 'system');
    expect(
      sent.map((m) => [m.role, m.tool_call_id ?? m.tool_calls?.map((c) => c.id).join(',') ?? '']),
    ).toEqual([
      ['user', ''],
      ['assistant', 'quick,long'],
      ['tool', 'quick'],
      ['tool', 'long'],
      ['user', ''],
    ]);
    expect(textOf(sent[0]!)).toBe('first request: run the long thing');
    expect(textOf(sent[1]!)).toContain('Running both.');
    expect(textOf(sent[2]!)).toContain('quick-output');
    expect(textOf(sent[3]!)).toContain('The user interrupted this tool call');
    expect(textOf(sent[4]!)).toBe('second request: are you still there?');

    // The context file holds the same, each tool message after the assistant message that called it.
    const sessions = execFileSync('find', [sandbox.home, '-name', 'context.jsonl'], { encoding: 'utf8' })
      .trim()
      .split('\n');
    expect(sessions).toHaveLength(1);
    const records = (await readFile(sessions[0]!, 'utf8'))
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as ApiMessage);
    const roles = records.filter((r) => ['user', 'assistant', 'tool'].includes(r.role)).map((r) => r.role);
    expect(roles).toEqual(['user', 'assistant', 'tool', 'tool', 'user', 'assistant']);
  });

  it('never glues two prompts: a cancel before the model said anything leaves two paragraphs', async () => {
    const { server, sandbox } = await cli.setup([{ stall: 'before-headers' }, { text: 'Here.' }]);
    const child = sandbox.spawn(['--wire']);
    const client = new WireClient(child);
    await client.request('initialize', { protocol_version: '1.10' });
    const first = client.request('prompt', { user_input: 'first request: run the long thing' });
    await server.waitForRequests(1);
    await client.request('cancel');
    expect((await first).result).toEqual({ status: 'cancelled' });
    await client.request('prompt', { user_input: 'second request: are you still there?' });
    child.stdin!.end();
    expect((await collect(child)).code).toBe(0);
    const users = messagesOf(1).filter((m) => m.role === 'user');
    expect(users.map(textOf)).toEqual([
      'first request: run the long thing\n\nsecond request: are you still there?',
    ]);
  });

  it('print mode: Ctrl-C during a long command exits 1 and leaves the step recorded, paired', async () => {
    const { sandbox } = await cli.setup([
      {
        text: 'Running it.',
        toolCalls: [
          { id: 'long', name: 'Shell', args: { command: 'echo started > started.fifo; sleep 120' } },
        ],
      },
    ]);
    execFileSync('mkfifo', [join(sandbox.workDir, 'started.fifo')]);
    const started = readFile(join(sandbox.workDir, 'started.fifo'), 'utf8');
    const child = sandbox.spawn(['--print', '-p', 'run the long thing']);
    const done = collect(child);
    expect(await started).toBe('started\n');
    child.kill('SIGINT');
    const result = await done;
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('Interrupted by user');
    const [file] = execFileSync('find', [sandbox.home, '-name', 'context.jsonl'], { encoding: 'utf8' })
      .trim()
      .split('\n');
    const records = (await readFile(file!, 'utf8'))
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as ApiMessage)
      .filter((r) => ['user', 'assistant', 'tool'].includes(r.role));
    expect(
      records.map((r) => [r.role, r.tool_call_id ?? r.tool_calls?.map((c) => c.id).join(',') ?? '']),
    ).toEqual([
      ['user', ''],
      ['assistant', 'long'],
      ['tool', 'long'],
    ]);
    expect(textOf(records[2]!)).toContain('The user interrupted this tool call');
  });
});
