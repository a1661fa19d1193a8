import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { collect } from '../support/run-cli.js';
import { useScriptedCli } from '../support/scripted-cli.js';
import { type JsonRpcMessage, WireClient } from '../support/wire-process-client.js';

const cli = useScriptedCli();

interface Asked {
  message: JsonRpcMessage;
  payload: { id: string; action: string; description: string };
}

/** Collects approval requests as they come; the test answers each. */
function approvals(client: WireClient): { next(): Promise<Asked>; count(): number } {
  let seen = 0;
  return {
    async next() {
      const index = seen++;
      let found = 0;
      const message = await client.waitFor((m) => m.method === 'request' && found++ === index);
      return { message, payload: (message.params as { payload: Asked['payload'] }).payload };
    },
    count: () => client.messages.filter((m) => m.method === 'request').length,
  };
}

const shell = (id: string, command: string) => ({ toolCalls: [{ id, name: 'Shell', args: { command } }] });

describe('approve for session, in the terms the person saw', () => {
  it('a command prefix covers commands whose every part starts with it, and is saved as a project rule', async () => {
    const { server, sandbox } = await cli.setup([
      shell('s1', 'echo one'),
      { text: 'ok1' },
      shell('s2', 'echo two && echo three'),
      { text: 'ok2' },
      shell('s3', 'echo four; touch evil'),
      shell('s4', 'echo five'),
      { text: 'ok3' },
    ]);
    const first = new WireClient(sandbox.spawn(['--wire']));
    const asked = approvals(first);
    const prompt1 = first.request('prompt', { user_input: 'one' });
    const ask1 = await asked.next();
    expect(ask1.payload.action).toBe('run command');
    first.send({
      jsonrpc: '2.0',
      id: ask1.message.id,
      result: {
        request_id: ask1.payload.id,
        response: 'approve_for_session',
        scope: 'prefix',
        prefix: 'echo',
        save_rule: 'project',
      },
    });
    expect((await prompt1).result).toEqual({ status: 'finished' });
    expect((await first.request('prompt', { user_input: 'two' })).result).toEqual({ status: 'finished' });
    expect(asked.count()).toBe(1);
    const prompt3 = first.request('prompt', { user_input: 'four' });
    const ask2 = await asked.next();
    expect(ask2.payload.description).toContain('runs 2 parts: `echo four`, `touch evil`');
    first.send({
      jsonrpc: '2.0',
      id: ask2.message.id,
      result: { request_id: ask2.payload.id, response: 'reject' },
    });
    expect((await prompt3).result).toEqual({ status: 'finished' });
    first.child.stdin!.end();
    await collect(first.child);
    const rulesFile = join(sandbox.workDir, '.kimi-ts', 'permissions.toml');
    expect(await readFile(rulesFile, 'utf8')).toContain('pattern = "Shell(echo *)"');
    await expect(readFile(join(sandbox.workDir, 'evil'))).rejects.toThrow();

    // A new process in the trusted folder: the saved rule answers, and /permissions shows where it
    // comes from. (Untrusted, a project's allow rules are not in force: workspace-trust.test.ts.)
    const second = new WireClient(sandbox.spawn(['--wire', '--trust-workspace']));
    expect((await second.request('prompt', { user_input: '/permissions' })).result).toEqual({
      status: 'finished',
    });
    const said = second.messages
      .filter((m) => m.method === 'event' && (m.params as { type: string }).type === 'ContentPart')
      .map((m) => JSON.stringify(m.params))
      .join('');
    expect(said).toContain(`allow Shell(echo *)  (${rulesFile}, rule 1) [project file]`);
    expect((await second.request('prompt', { user_input: 'five' })).result).toEqual({ status: 'finished' });
    expect(second.messages.filter((m) => m.method === 'request')).toHaveLength(0);
    expect(JSON.stringify(server.requests.at(-1)?.body)).toContain('five');
    second.child.stdin!.end();
    await collect(second.child);
  });
});
