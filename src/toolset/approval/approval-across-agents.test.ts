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
