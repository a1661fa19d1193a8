import { describe, expect, it } from 'vitest';
import { collect, liveCli } from '../support/run-cli.js';
import { useScriptedCli } from '../support/scripted-cli.js';
import { AGENT_COMMANDS, AGENT_DESCRIPTIONS, twoAgentsScenario } from '../support/two-agents-scenario.js';
import { type JsonRpcMessage, WireClient } from '../support/wire-process-client.js';

const cli = useScriptedCli();

interface AskedPayload {
  id: string;
  description: string;
  agent_id?: string | null;
  subagent_type?: string | null;
  source_description?: string | null;
  parent_tool_call_id?: string | null;
}

const payloadOf = (m: JsonRpcMessage) => (m.params as { payload: AskedPayload }).payload;
const isApproval = (m: JsonRpcMessage) =>
  m.method === 'request' && (m.params as { type?: string }).type === 'ApprovalRequest';

describe('one approval queue: two agents asking at once (wire mode)', () => {
  it('each request says which agent asks; each answer settles only its own request', async () => {
    const scenario = await twoAgentsScenario();
    cli.defer(() => scenario.close());
    const client = new WireClient(scenario.sandbox.spawn(['--wire']));
    await client.request('initialize', { protocol_version: '1.10' });
    const prompt = client.request('prompt', { user_input: 'run both agents' });

    // Both agents wait at the same time: two requests are open before either is answered.
    await client.waitFor(() => client.messages.filter(isApproval).length === 2);
    const asks = client.messages.filter(isApproval);
    const byAgent = (name: 'one' | 'two') => {
      const ask = asks.find((m) => payloadOf(m).source_description === AGENT_DESCRIPTIONS[name]);
      if (!ask) throw new Error(`no request from agent ${name}`);
      return ask;
    };
    const [one, two] = [byAgent('one'), byAgent('two')];
    for (const [ask, name] of [
      [one, 'one'],
      [two, 'two'],
    ] as const) {
      expect(payloadOf(ask)).toMatchObject({
        subagent_type: 'coder',
        parent_tool_call_id: `call-${name}`,
        agent_id: expect.stringMatching(/^a[0-9a-f]{8}$/),
      });
      expect(payloadOf(ask).description).toContain(AGENT_COMMANDS[name]);
    }
    expect(payloadOf(one).agent_id).not.toBe(payloadOf(two).agent_id);

    // Hostile: an answer to agent one's request that names agent two's approves neither.
    client.send({
      jsonrpc: '2.0',
      id: one.id,
      result: { request_id: payloadOf(two).id, response: 'approve' },
    });
    const settled = (id: string) =>
      client.waitFor((m) => {
        const envelope = m.params as { type?: string; payload?: { request_id?: string } } | undefined;
        return (
          m.method === 'event' && envelope?.type === 'ApprovalResponse' && envelope.payload?.request_id === id
        );
      });
    expect((await settled(payloadOf(one).id)).params).toMatchObject({ payload: { response: 'reject' } });
    // Agent one was refused and reported; agent two still waits for its own answer.
    await scenario.one.waitForRequests(2);
    expect(
      client.messages.some(
        (m) =>
          m.method === 'event' &&
          (m.params as { type?: string; payload?: { request_id?: string } }).payload?.request_id ===
            payloadOf(two).id,
      ),
    ).toBe(false);
    client.send({
      jsonrpc: '2.0',
      id: two.id,
      result: { request_id: payloadOf(two).id, response: 'approve' },
    });
    expect((await settled(payloadOf(two).id)).params).toMatchObject({ payload: { response: 'approve' } });
    expect((await prompt).result).toEqual({ status: 'finished' });

    // What each agent's model was told: one was refused, two ran its command.
    expect(JSON.stringify(scenario.one.requests[1]?.body)).not.toContain('from-agent-one\\n');
    expect(JSON.stringify(scenario.one.requests[1]?.body)).toMatch(/reject/i);
    expect(JSON.stringify(scenario.two.requests[1]?.body)).toContain('from-agent-two');
    client.child.stdin?.end();
    await collect(client.child);
  });
});

describe('one approval queue: two agents asking at once (line shell)', () => {
  it('asks one after the other, each saying which agent asks', async () => {
    const scenario = await twoAgentsScenario();
    cli.defer(() => scenario.close());
    const shell = liveCli(scenario.sandbox.spawn([]));
    shell.type('run both agents\n');
    await shell.waitFor(' asks:\nAllow run command?');
    await shell.waitFor('approve? ');
    const first = /Agent coder (a[0-9a-f]{8}) — (Agent one|Agent two) asks:/.exec(shell.stdout);
    expect(first).not.toBeNull();
    const other = first?.[2] === AGENT_DESCRIPTIONS.one ? AGENT_DESCRIPTIONS.two : AGENT_DESCRIPTIONS.one;
    shell.type('1\n');
    await shell.waitFor(`— ${other} asks:`);
    expect(shell.stdout).not.toContain(`${first?.[1]} — ${other}`);
    shell.type('1\n');
    await shell.waitFor('Both agents reported.');
    expect(JSON.stringify(scenario.one.requests[1]?.body)).toContain('from-agent-one\\n');
    expect(JSON.stringify(scenario.two.requests[1]?.body)).toContain('from-agent-two\\n');
    expect(await shell.end()).toBe(0);
  });
});
