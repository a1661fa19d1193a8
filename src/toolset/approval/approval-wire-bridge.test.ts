import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { toolOk } from '../../kosong/index.js';
import {
  ApprovalRequest,
  runWithWire,
  Wire,
  type WireMessage,
  type WireSubscription,
} from '../../wire/index.js';
import { KimiToolset } from '../kimi-toolset.js';
import { dispatchAll, toolCall } from '../test-support/dispatch.js';
import { testPolicy } from '../test-support/test-policy.js';
import { defineTool } from '../tool-definition.js';
import { toolErrorKind } from '../tool-errors.js';
import { Approval } from './approval.js';
import { runWithApprovalSource } from './approval-source.js';
import { bridgeApprovalsToWire } from './approval-wire-bridge.js';

function setup() {
  const approval = new Approval();
  const toolset = new KimiToolset({ policy: testPolicy({ workDir: process.cwd(), approval }), approval });
  let runs = 0;
  toolset.add(
    defineTool({
      name: 'Shell',
      description: '',
      params: z.object({ command: z.string() }),
      effect: 'runs-commands',
      approval: ({ command }) => ({
        action: 'run command',
        description: `Run command \`${command}\``,
        display: [{ type: 'shell', language: 'bash', command }],
      }),
      call: ({ command }) => {
        runs++;
        return toolOk(`ran ${command}`);
      },
    }),
  );
  return { approval, toolset, runs: () => runs };
}

async function nextOfType<T extends WireMessage['type']>(
  ui: WireSubscription,
  type: T,
): Promise<Extract<WireMessage, { type: T }>> {
  for (;;) {
    const message = await ui.receive();
    if (message === null) throw new Error(`the wire ended before a ${type}`);
    if (message.type === type) return message as Extract<WireMessage, { type: T }>;
  }
}

describe('approval requests over the Wire', () => {
  it('sends each request as ApprovalRequest, resolves the record from its answer and announces the settlement', async () => {
    const { approval, toolset, runs } = setup();
    const wire = new Wire();
    const ui = wire.subscribe({ merge: true });
    bridgeApprovalsToWire(approval.runtime);
    const source = { kind: 'foreground_turn' as const, id: 'turn-1' };
    const results = runWithWire(wire, () =>
      runWithApprovalSource(source, () =>
        dispatchAll(toolset, [toolCall('c1', 'Shell', { command: 'make' })]),
      ),
    );

    const request = await nextOfType(ui, 'ApprovalRequest');
    expect(request).toBeInstanceOf(ApprovalRequest);
    expect(request.payload).toMatchObject({
      tool_call_id: 'c1',
      sender: 'Shell',
      action: 'run command',
      description: 'Run command `make`',
      display: [{ type: 'shell', language: 'bash', command: 'make' }],
      source_kind: 'foreground_turn',
      source_id: 'turn-1',
      agent_id: null,
    });
    request.resolve('approve');
    expect((await results)[0]!.return_value.output).toBe('ran make');
    expect(runs()).toBe(1);
    const response = await nextOfType(ui, 'ApprovalResponse');
    expect(response.payload).toEqual({ request_id: request.id, response: 'approve', feedback: '' });
  });

  it('closes the wire request when the runtime settles it another way (cancel by source)', async () => {
    const { approval, toolset, runs } = setup();
    const wire = new Wire();
    const ui = wire.subscribe({ merge: true });
    bridgeApprovalsToWire(approval.runtime, { send: (message) => wire.send(message) });
    const results = runWithApprovalSource({ kind: 'foreground_turn', id: 'turn-2' }, () =>
      dispatchAll(toolset, [toolCall('c1', 'Shell', { command: 'deploy' })]),
    );
    const request = await nextOfType(ui, 'ApprovalRequest');
    approval.runtime.cancelBySource('foreground_turn', 'turn-2', 'turn ended');
    expect(request.isPending).toBe(false);
    expect((await nextOfType(ui, 'ApprovalResponse')).payload).toEqual({
      request_id: request.id,
      response: 'reject',
      feedback: 'turn ended',
    });
    expect(toolErrorKind((await results)[0]!.return_value)).toBe('rejected');
    expect(runs()).toBe(0);
  });

  it('rejects instead of waiting forever when no front end can be asked', async () => {
    const { approval, toolset, runs } = setup();
    const wire = new Wire();
    wire.shutdown();
    bridgeApprovalsToWire(approval.runtime, { send: (message) => wire.send(message) });
    const [result] = await dispatchAll(toolset, [toolCall('c1', 'Shell', { command: 'x' })]);
    expect(toolErrorKind(result!.return_value)).toBe('rejected');

    const noWire = setup();
    bridgeApprovalsToWire(noWire.approval.runtime); // wireSend with no current wire throws
    const [alone] = await dispatchAll(noWire.toolset, [toolCall('c2', 'Shell', { command: 'y' })]);
    expect(toolErrorKind(alone!.return_value)).toBe('rejected');
    expect(runs() + noWire.runs()).toBe(0);
  });

  it('stops bridging when disconnected', () => {
    const approval = new Approval();
    const sent: WireMessage[] = [];
    const disconnect = bridgeApprovalsToWire(approval.runtime, { send: (message) => sent.push(message) });
    disconnect();
    approval.runtime.createRequest({
      tool_call_id: 'c',
      sender: 'S',
      action: 'a',
      description: 'd',
      source: { kind: 'foreground_turn', id: 't' },
    });
    expect(sent).toEqual([]);
  });

  it("an approve_for_session without a scope covers the whole action (Kimi CLI's meaning)", async () => {
    const { approval, toolset, runs } = setup();
    const wire = new Wire();
    const ui = wire.subscribe({ merge: true });
    bridgeApprovalsToWire(approval.runtime);
    const first = runWithWire(wire, () =>
      dispatchAll(toolset, [toolCall('c1', 'Shell', { command: 'make' })]),
    );
    (await nextOfType(ui, 'ApprovalRequest')).resolve('approve_for_session');
    await first;
    const second = await runWithWire(wire, () =>
      dispatchAll(toolset, [toolCall('c2', 'Shell', { command: 'make test' })]),
    );
    expect(second[0]!.return_value.output).toBe('ran make test');
    expect(runs()).toBe(2);
    expect(approval.toJSON().auto_approve_actions).toEqual(['run command']);
  });

  it("an answer for the swarm lets that swarm's agents run commands unasked; the main agent is still asked, and its agents once the swarm ended", async () => {
    const { approval, toolset, runs } = setup();
    const wire = new Wire();
    const ui = wire.subscribe({ merge: true });
    bridgeApprovalsToWire(approval.runtime);
    const item = (agent: string) => ({
      kind: 'foreground_turn' as const,
      id: `${agent}-run`,
      agent_id: agent,
      parent_tool_call_id: 'swarm-call',
      swarm_id: 's1',
    });
    const asSwarmAgent = (agent: string, id: string, command: string) =>
      runWithWire(wire, () =>
        runWithApprovalSource(item(agent), () => dispatchAll(toolset, [toolCall(id, 'Shell', { command })])),
      );
    const first = asSwarmAgent('a1', 'c1', 'git status');
    const request = await nextOfType(ui, 'ApprovalRequest');
    expect(request.payload).toMatchObject({ swarm_id: 's1', parent_tool_call_id: 'swarm-call' });
    request.resolve('approve_for_session', '', { scope: 'action', for_swarm: true });
    expect((await first)[0]!.return_value.output).toBe('ran git status');
    expect((await asSwarmAgent('a2', 'c2', 'git log'))[0]!.return_value.output).toBe('ran git log');
    expect(runs()).toBe(2);
    // The main agent's `git log` is asked: nothing was approved for the session.
    const main = runWithWire(wire, () =>
      runWithApprovalSource({ kind: 'foreground_turn', id: 'turn-1' }, () =>
        dispatchAll(toolset, [toolCall('c3', 'Shell', { command: 'git log' })]),
      ),
    );
    const asked = await nextOfType(ui, 'ApprovalRequest');
    expect(asked.payload.swarm_id).toBeNull();
    asked.resolve('reject');
    expect(toolErrorKind((await main)[0]!.return_value)).toBe('rejected');
    // The swarm ended: its agents are asked again.
    approval.endSwarm('s1');
    const later = asSwarmAgent('a3', 'c4', 'git log');
    (await nextOfType(ui, 'ApprovalRequest')).resolve('reject');
    expect(toolErrorKind((await later)[0]!.return_value)).toBe('rejected');
    expect(runs()).toBe(2);
  });
});
