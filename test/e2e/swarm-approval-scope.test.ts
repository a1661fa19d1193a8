import { describe, expect, it } from 'vitest';
import { collect } from '../support/run-cli.js';
import { useScriptedCli } from '../support/scripted-cli.js';
import {
  FIRST_SWARM_CALL,
  itemsThatRan,
  SECOND_SWARM_CALL,
  scriptSwarmApprovals,
} from '../support/swarm-approval-scenario.js';
import { type JsonRpcMessage, WireClient } from '../support/wire-process-client.js';

const cli = useScriptedCli();

interface AskedPayload {
  id: string;
  agent_id?: string | null;
  parent_tool_call_id?: string | null;
  swarm_id?: string | null;
}

describe('approve for all agents of this swarm (built CLI, wire mode)', () => {
  it("covers the swarm's agents only: the main agent's and another swarm's identical requests are asked", async () => {
    const { sandbox, server } = await cli.setup([]);
    scriptSwarmApprovals(server);
    const child = sandbox.spawn(['--wire']);
    const client = new WireClient(child);
    const asked: AskedPayload[] = [];
    let firstSwarm: string | null = null;
    client.listen((message: JsonRpcMessage) => {
      const params = message.params as { type?: string; payload?: AskedPayload };
      if (message.method !== 'request' || params?.type !== 'ApprovalRequest' || !params.payload) return;
      const payload = params.payload;
      asked.push(payload);
      const ofFirst = payload.parent_tool_call_id === FIRST_SWARM_CALL;
      // The first request of the first swarm is approved for that swarm; the client never answers
      // another of that swarm: the answer must release it (else the turn would never end).
      const forSwarm = ofFirst && firstSwarm === null;
      if (forSwarm) firstSwarm = payload.swarm_id ?? null;
      else if (ofFirst) return;
      client.send({
        jsonrpc: '2.0',
        id: message.id,
        result: forSwarm
          ? { request_id: payload.id, response: 'approve_for_session', scope: 'exact', for_swarm: true }
          : { request_id: payload.id, response: 'approve' },
      });
    });
    await client.request('initialize', { protocol_version: '1.10' });
    expect((await client.request('prompt', { user_input: 'Run the swarms.' })).result).toEqual({
      status: 'finished',
    });
    child.stdin!.end();
    expect((await collect(child)).code).toBe(0);

    expect(firstSwarm).toMatch(/^s[0-9a-f]{8}$/);
    // Every agent of both swarms ran the command: none of the first swarm's was refused.
    expect(itemsThatRan(server)).toEqual(['a', 'b', 'c', 'd', 'e']);
    // Agents of the first swarm that asked before the answer were released; later ones not asked.
    const ofFirst = asked.filter((p) => p.parent_tool_call_id === FIRST_SWARM_CALL);
    expect(ofFirst.length).toBeGreaterThanOrEqual(1);
    const settled = client.messages.filter(
      (m) =>
        m.method === 'event' &&
        (m.params as { type: string }).type === 'ApprovalResponse' &&
        ofFirst.some((p) => p.id === (m.params as { payload: { request_id: string } }).payload.request_id),
    );
    // Every request of the first swarm was settled as approved (the unanswered ones by the release).
    expect(settled).toHaveLength(ofFirst.length);
    for (const response of settled)
      expect((response.params as { payload: { response: string } }).payload.response).toMatch(/^approve/);
    // The main agent asked, unmarked (no swarm id written for it).
    const main = asked.filter((p) => !p.agent_id);
    expect(main).toHaveLength(1);
    expect(main[0]).not.toHaveProperty('swarm_id');
    // The second swarm's two agents each asked: another swarm, another id.
    const ofSecond = asked.filter((p) => p.parent_tool_call_id === SECOND_SWARM_CALL);
    expect(ofSecond).toHaveLength(2);
    expect(new Set(ofSecond.map((p) => p.swarm_id)).size).toBe(1);
    expect(ofSecond[0]?.swarm_id).not.toBe(firstSwarm);
  });
});
