import { afterEach, describe, expect, it } from 'vitest';
import { runWithWire } from '../wire/current-wire.js';
import type { WireMessage } from '../wire/message.js';
import { Wire } from '../wire/wire.js';
import { mcpLoadingGate } from './loading-gate.js';
import { McpManager } from './mcp-manager.js';
import { FAULT_SERVER } from './test-support/everything-server.js';
import { toolsetWithBuiltinEcho } from './test-support/toolset-fixture.js';

let manager: McpManager | undefined;
afterEach(async () => {
  await manager?.close();
});

async function collect(wire: Wire): Promise<WireMessage[]> {
  const out: WireMessage[] = [];
  for await (const message of wire.subscribe({ merge: true })) out.push(message);
  return out;
}

describe('mcpLoadingGate', () => {
  it('tells the front ends that MCP is loading, waits for it, and reports the result', async () => {
    const { toolset } = toolsetWithBuiltinEcho();
    manager = new McpManager({
      servers: { faults: { kind: 'stdio', command: process.execPath, args: [FAULT_SERVER], env: {} } },
    });
    manager.start(toolset);
    const wire = new Wire();
    const events = collect(wire);
    await runWithWire(wire, () => mcpLoadingGate(manager!)(new AbortController().signal));
    wire.shutdown();

    const seen = (await events).map((message) =>
      message.type === 'StatusUpdate'
        ? `StatusUpdate loading=${message.payload.mcp_status?.loading}`
        : message.type,
    );
    expect(seen).toEqual([
      'StatusUpdate loading=true',
      'MCPLoadingBegin',
      'StatusUpdate loading=false',
      'MCPLoadingEnd',
    ]);
    expect(toolset.find('echo_text')).toBeDefined();
  });

  it('sends nothing when loading is already over', async () => {
    const { toolset } = toolsetWithBuiltinEcho();
    manager = new McpManager({ servers: {} });
    manager.start(toolset);
    await manager.waitForLoading();
    const wire = new Wire();
    const events = collect(wire);
    await runWithWire(wire, () => mcpLoadingGate(manager!)(new AbortController().signal));
    wire.shutdown();
    expect(await events).toEqual([]);
  });

  it('stops waiting when the turn is cancelled, still closing the Begin with an End', async () => {
    const { toolset } = toolsetWithBuiltinEcho();
    manager = new McpManager({
      servers: {
        stuck: {
          kind: 'stdio',
          command: process.execPath,
          args: ['-e', 'setInterval(() => {}, 1000)'],
          env: {},
        },
      },
    });
    manager.start(toolset);
    const wire = new Wire();
    const events = collect(wire);
    const controller = new AbortController();
    const gate = runWithWire(wire, () => mcpLoadingGate(manager!)(controller.signal));
    controller.abort(new Error('cancelled'));
    await expect(gate).rejects.toThrow('cancelled');
    wire.shutdown();
    expect((await events).map((message) => message.type)).toEqual([
      'StatusUpdate',
      'MCPLoadingBegin',
      'StatusUpdate',
      'MCPLoadingEnd',
    ]);
  });
});
