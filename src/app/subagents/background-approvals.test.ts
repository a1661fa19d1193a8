import { describe, expect, it } from 'vitest';
import { ApprovalRuntime } from '../../toolset/approval/approval-runtime.js';
import { ApprovalRequest } from '../../wire/requests.js';
import { Wire } from '../../wire/wire.js';
import { watchBackgroundApprovals } from './background-approvals.js';
import { RootWireTracker } from './root-wire-tracker.js';

function nextRequest(wire: Wire): Promise<ApprovalRequest> {
  const subscription = wire.subscribe({ merge: true });
  return (async () => {
    for await (const message of subscription) {
      if (message instanceof ApprovalRequest) {
        subscription.close();
        return message;
      }
    }
    throw new Error('the wire ended without a request');
  })();
}

function setup() {
  const runtime = new ApprovalRuntime();
  const tracker = new RootWireTracker();
  const waiting: boolean[] = [];
  const stop = watchBackgroundApprovals({
    runtime,
    taskId: 'agent-task0001',
    subagentWire: () => null,
    tracker,
    setAwaitingApproval: async (value) => {
      waiting.push(value);
    },
  });
  const ask = () =>
    runtime.createRequest({
      tool_call_id: 'sub-1',
      sender: 'WriteFile',
      action: 'edit file',
      description: 'Write file `x`',
      source: {
        kind: 'background_agent',
        id: 'agent-task0001',
        agent_id: 'a12345678',
        subagent_type: 'coder',
      },
    });
  return { runtime, tracker, waiting, stop, ask };
}

describe('background subagent approvals', () => {
  it('holds a request made between root turns and delivers it when the next turn starts', async () => {
    const { runtime, tracker, waiting, ask } = setup();
    const record = ask();
    const settled = runtime.waitForResponse(record.id);
    await Promise.resolve(); // the watcher publishes in a microtask

    const rootWire = new Wire();
    const delivered = nextRequest(rootWire);
    tracker.turnStarted(rootWire);
    const request = await delivered;
    expect(request.payload).toMatchObject({
      id: record.id,
      source_kind: 'background_agent',
      source_id: 'agent-task0001',
      agent_id: 'a12345678',
      subagent_type: 'coder',
    });
    request.resolve('approve');
    expect((await settled).response).toBe('approve');
    expect(waiting).toEqual([true, false]);
  });

  it('sends at once during a root turn, and closes its own request when answered elsewhere', async () => {
    const { runtime, tracker, ask } = setup();
    const rootWire = new Wire();
    tracker.turnStarted(rootWire);
    const delivered = nextRequest(rootWire);
    const record = ask();
    const request = await delivered;
    runtime.resolve(record.id, { response: 'reject', feedback: 'no' });
    expect(request.state).toEqual({ status: 'resolved', answer: { response: 'reject', feedback: 'no' } });
  });

  it('ignores requests of other sources and stops watching when told', async () => {
    const { runtime, tracker, waiting, stop, ask } = setup();
    runtime.createRequest({
      tool_call_id: 'x',
      sender: 'Shell',
      action: 'run command',
      description: 'Run command `ls`',
      source: { kind: 'foreground_turn', id: 'turn-1' },
    });
    await Promise.resolve();
    stop();
    ask();
    await Promise.resolve();
    const rootWire = new Wire();
    const seen = rootWire.subscribe({ merge: true });
    tracker.turnStarted(rootWire);
    expect(seen.size).toBe(0);
    expect(waiting).toEqual([]);
  });
});
