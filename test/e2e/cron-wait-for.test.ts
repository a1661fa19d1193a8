import { execFileSync } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { collect } from '../support/run-cli.js';
import { useScriptedCli } from '../support/scripted-cli.js';
import type { ScriptedTurn } from '../support/scripted-llm-server.js';
import { WireClient } from '../support/wire-process-client.js';

const cli = useScriptedCli();

interface ChatMessage {
  role: string;
  content: unknown;
  tool_calls?: { function: { name: string } }[];
}

const textOf = (content: unknown) =>
  typeof content === 'string'
    ? content
    : (content as { text?: string }[]).map((part) => part.text ?? '').join('');

describe('WaitFor on a background Shell task', () => {
  it('waits in the turn until the task ends and returns its output', async () => {
    const { server, sandbox } = await cli.setup([
      {
        toolCalls: [
          {
            id: 'bg',
            name: 'Shell',
            args: {
              command: 'cat gate.fifo; echo waited-result-7',
              run_in_background: true,
              description: 'gated job',
            },
          },
        ],
      },
    ]);
    // The model reads the task id from the Shell result and waits for it, as a model would.
    server.answerBy((body): ScriptedTurn => {
      const messages = (body as { messages: ChatMessage[] }).messages;
      const waited = messages.some((m) => m.tool_calls?.some((call) => call.function.name === 'WaitFor'));
      if (waited) return { text: 'The job is done.' };
      const taskId = /task_id: (\S+)/.exec(textOf(messages.at(-1)?.content))?.[1];
      return { toolCalls: [{ id: 'wait', name: 'WaitFor', args: { task_id: taskId, timeout: 900 } }] };
    });
    execFileSync('mkfifo', [join(sandbox.workDir, 'gate.fifo')]);
    const child = sandbox.spawn(['--wire', '--yolo']);
    const client = new WireClient(child);
    await client.request('initialize', { protocol_version: '1.10' });
    const prompt = client.request('prompt', { user_input: 'run the job and wait for it' });
    // The wait has begun (its call is out) while the task still blocks on the fifo: now let it end.
    await client.waitFor(
      (m) =>
        m.method === 'event' &&
        (m.params as { type: string; payload: { function?: { name: string } } }).type === 'ToolCall' &&
        (m.params as { payload: { function?: { name: string } } }).payload.function?.name === 'WaitFor',
    );
    await writeFile(join(sandbox.workDir, 'gate.fifo'), 'go\n');
    expect((await prompt).result).toEqual({ status: 'finished' });
    const waitResult = server.requests
      .map((request) => (request.body as { messages: ChatMessage[] }).messages)
      .flatMap((messages) => messages.filter((m) => m.role === 'tool'))
      .map((m) => textOf(m.content))
      .find((text) => text.includes('wait_status'));
    expect(waitResult).toMatch(/wait_status: completed\n/);
    expect(waitResult).toContain('timeout_ms: 600000');
    expect(waitResult).toContain('above the 600s ceiling');
    expect(waitResult).toContain('status: completed');
    expect(waitResult).toMatch(/\[output\]\ngo\nwaited-result-7$/);
    child.stdin?.end();
    await collect(child);
  });
});
