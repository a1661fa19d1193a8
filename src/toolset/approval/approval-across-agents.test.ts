import { describe, expect, it } from 'vitest';
import type { ToolCall } from '../../kosong/index.js';
import { runInToolCall } from '../current-tool-call.js';
import { Approval, type ApprovalResult } from './approval.js';
import type { PendingApprovalRecord } from './approval-runtime.js';
import { type ApprovalSource, runWithApprovalSource } from './approval-source.js';

let calls = 0;
/** A request as a tool of the agent `source` makes it: inside its tool call and its source. */
function askAs(approval: Approval, source: ApprovalSource, description: string): Promise<ApprovalResult> {
  const toolCall: ToolCall = {
    type: 'function',
    id: `call-${++calls}`,
    function: { name: 'Shell', arguments: '{}' },
  };
  return runWithApprovalSource(source, () =>
    runInToolCall({ toolCall, signal: new AbortController().signal, approvedActions: new Set() }, () =>
      approval.request('Shell', 'run command', description),
    ),
  );
}

function created(approval: Approval, count: number): Promise<PendingApprovalRecord[]> {
  const seen: PendingApprovalRecord[] = [];
  return new Promise((resolve) => {
    const stop = approval.runtime.subscribe((event) => {
      if (event.type !== 'request_created') return;
      seen.push(event.record);
      if (seen.length === count) {
        stop();
        resolve(seen);
      }
    });
  });
}

const swarmItem = (agent: string): ApprovalSource => ({
  kind: 'foreground_turn',
  id: `${agent}-run`,
  agent_id: agent,
  subagent_type: 'coder',
  parent_tool_call_id: 'swarm-call-1',
});

describe('approval for the session covers every agent of it (one set, shared with subagents)', () => {
  it("an approve-for-session given to one agent's entry releases another agent's same request, and later ones", async () => {
    const root = new Approval();
    // Each subagent's soul gets a copy of the root's approval sharing its state (subagent-soul.ts).
    const first = root.share();
    const second = root.share();
    const asked = created(root, 3);
    const a = askAs(first, swarmItem('a1'), 'Run `npm test`');
    const b = askAs(second, swarmItem('a2'), 'Run `npm test`');
    const other = askAs(second, swarmItem('a2'), 'Run `rm -rf build`');
    const [recordA, recordB, recordOther] = await asked;
    expect(recordA?.source.parent_tool_call_id).toBe('swarm-call-1');
    root.runtime.resolve(recordA!.id, { response: 'approve_for_session', scope: 'exact' });
    expect((await a).approved).toBe(true);
    expect((await b).approved).toBe(true);
    expect(root.runtime.get(recordB!.id)?.status).toBe('resolved');
    // Not covered by the exact scope: still waits for its own answer.
    expect(root.runtime.get(recordOther!.id)?.status).toBe('pending');
    // The main agent (and any later agent) is covered too, without asking.
    expect(root.runtime.listPending()).toHaveLength(1);
    expect((await askAs(root, { kind: 'foreground_turn', id: 'turn-2' }, 'Run `npm test`')).approved).toBe(
      true,
    );
    expect(root.runtime.listPending()).toHaveLength(1);
    root.runtime.resolve(recordOther!.id, { response: 'reject' });
    expect((await other).approved).toBe(false);
  });
});

const inSwarm = (agent: string, swarm: string, call: string): ApprovalSource => ({
  kind: 'foreground_turn',
  id: `${agent}-run`,
  agent_id: agent,
  subagent_type: 'coder',
  parent_tool_call_id: call,
  swarm_id: swarm,
});
const mainTurn: ApprovalSource = { kind: 'foreground_turn', id: 'turn-1' };

describe('approve for all agents of this swarm', () => {
  it("covers the same request of every agent of the swarm, and no other swarm's, nor the main agent's", async () => {
    const root = new Approval();
    const asked = created(root, 4);
    const a = askAs(root.share(), inSwarm('a1', 's1', 'call-x'), 'Run `npm test`');
    const b = askAs(root.share(), inSwarm('a2', 's1', 'call-x'), 'Run `npm test`');
    // Another swarm that even reuses the tool call id: its id is kimi-ts's, not the model's.
    const other = askAs(root.share(), inSwarm('b1', 's2', 'call-x'), 'Run `npm test`');
    const main = askAs(root, mainTurn, 'Run `npm test`');
    const [recordA, recordB, recordOther, recordMain] = await asked;
    root.runtime.resolve(recordA!.id, { response: 'approve_for_session', scope: 'exact', forSwarm: true });
    expect((await a).approved).toBe(true);
    expect((await b).approved).toBe(true);
    expect(root.runtime.get(recordB!.id)?.status).toBe('resolved');
    expect(root.runtime.get(recordOther!.id)?.status).toBe('pending');
    expect(root.runtime.get(recordMain!.id)?.status).toBe('pending');
    // A later agent of the same swarm is not asked; nothing was remembered for the session.
    expect((await askAs(root.share(), inSwarm('a3', 's1', 'call-x'), 'Run `npm test`')).approved).toBe(true);
    expect(root.toJSON().auto_approve_exact).toEqual([]);
    expect(root.toJSON().auto_approve_actions).toEqual([]);
    root.runtime.resolve(recordOther!.id, { response: 'reject' });
    root.runtime.resolve(recordMain!.id, { response: 'reject' });
    expect((await other).approved).toBe(false);
    expect((await main).approved).toBe(false);
  });

  it('ends when the swarm ends: the same request of its agents is asked again', async () => {
    const root = new Approval();
    const first = created(root, 1);
    const a = askAs(root.share(), inSwarm('a1', 's1', 'call-1'), 'Run `make`');
    root.runtime.resolve((await first)[0]!.id, {
      response: 'approve_for_session',
      scope: 'action',
      forSwarm: true,
    });
    expect((await a).approved).toBe(true);
    root.endSwarm('s1');
    const again = created(root, 1);
    const b = askAs(root.share(), inSwarm('a2', 's1', 'call-1'), 'Run `make`');
    const [record] = await again;
    expect(record?.status).toBe('pending');
    root.runtime.resolve(record!.id, { response: 'reject' });
    expect((await b).approved).toBe(false);
  });

  it('keeps a command prefix for the swarm alone (the policy reads it through approvedPrefixes)', async () => {
    const root = new Approval();
    const asked = created(root, 1);
    const a = askAs(root.share(), inSwarm('a1', 's1', 'call-1'), 'Run `git status`');
    const [record] = await asked;
    root.runtime.resolve(record!.id, {
      response: 'approve_for_session',
      scope: 'prefix',
      prefix: 'git',
      forSwarm: true,
    });
    const result = await a;
    expect(result.approved).toBe(true);
    // Nothing for the policy to keep for the session.
    expect(result.answer).toBeUndefined();
    expect(
      runWithApprovalSource(inSwarm('a2', 's1', 'call-1'), () => root.approvedPrefixes('Shell')),
    ).toEqual(['git']);
    expect(
      runWithApprovalSource(inSwarm('b1', 's2', 'call-1'), () => root.approvedPrefixes('Shell')),
    ).toEqual([]);
    expect(runWithApprovalSource(mainTurn, () => root.approvedPrefixes('Shell'))).toEqual([]);
  });

  it('from an agent of no swarm, a for-swarm answer approves that request once, nothing wider', async () => {
    const root = new Approval();
    const asked = created(root, 1);
    const a = askAs(root, mainTurn, 'Run `ls`');
    root.runtime.resolve((await asked)[0]!.id, {
      response: 'approve_for_session',
      scope: 'action',
      forSwarm: true,
    });
    expect((await a).response).toBe('approve');
    expect(root.isSessionApproved('run command', 'Run `ls`')).toBe(false);
    expect(root.toJSON().auto_approve_actions).toEqual([]);
  });
});
