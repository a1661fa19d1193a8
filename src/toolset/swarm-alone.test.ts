import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { toolOk } from '../kosong/index.js';
import { Approval } from './approval/approval.js';
import { KimiToolset } from './kimi-toolset.js';
import { dispatchAll, openDispatch, resultText, toolCall } from './test-support/dispatch.js';
import { testPolicy } from './test-support/test-policy.js';
import { defineTool } from './tool-definition.js';
import { toolErrorKind } from './tool-errors.js';

/** A toolset with AgentSwarm and ReadFile stand-ins that count their runs. */
function setup() {
  const ran: string[] = [];
  const approval = new Approval({ state: { yolo: true } });
  const toolset = new KimiToolset({ policy: testPolicy({ workDir: process.cwd(), approval }), approval });
  for (const [name, effect] of [
    ['AgentSwarm', 'external'],
    ['ReadFile', 'read-only'],
  ] as const) {
    toolset.add(
      defineTool({
        name,
        description: '',
        params: z.object({ n: z.number() }),
        effect,
        approval: () => ({ action: 'auto', description: '' }),
        call: ({ n }) => {
          ran.push(`${name} ${n}`);
          return toolOk(`${name} ${n} ran`);
        },
      }),
    );
  }
  return { toolset, ran };
}

describe('AgentSwarm must be the only tool call in its response (Kimi Code)', () => {
  it('an AgentSwarm alone runs', async () => {
    const { toolset, ran } = setup();
    const [result] = await dispatchAll(toolset, [toolCall('s', 'AgentSwarm', { n: 1 })]);
    expect(resultText(result!)).toContain('AgentSwarm 1 ran');
    expect(ran).toEqual(['AgentSwarm 1']);
  });

  it('a call after an AgentSwarm in the same response is refused, and the swarm does not start', async () => {
    const { toolset, ran } = setup();
    const results = await dispatchAll(toolset, [
      toolCall('s', 'AgentSwarm', { n: 1 }),
      toolCall('r', 'ReadFile', { n: 2 }),
    ]);
    for (const result of results) {
      expect(toolErrorKind(result.return_value)).toBe('policy_denied');
      expect(resultText(result)).toContain('AgentSwarm must be the only tool call in its response');
    }
    expect(ran).toEqual([]);
  });

  it('an AgentSwarm that comes after another call waits for the end of the response, then is refused', async () => {
    const { toolset, ran } = setup();
    const { dispatch, endStream } = openDispatch();
    const swarm = Promise.resolve(toolset.handle(toolCall('s', 'AgentSwarm', { n: 1 }), dispatch));
    let settled = false;
    void swarm.then(() => {
      settled = true;
    });
    const read = Promise.resolve(toolset.handle(toolCall('r', 'ReadFile', { n: 2 }), dispatch));
    expect(toolErrorKind((await read).return_value)).toBe('policy_denied');
    expect(settled).toBe(false);
    endStream(true);
    expect(resultText(await swarm)).toContain('AgentSwarm must be the only tool call');
    expect(ran).toEqual([]);
  });

  it('two AgentSwarm calls in one response: neither runs; the model is told to call them one after another', async () => {
    const { toolset, ran } = setup();
    const results = await dispatchAll(toolset, [
      toolCall('s1', 'AgentSwarm', { n: 1 }),
      toolCall('s2', 'AgentSwarm', { n: 2 }),
    ]);
    for (const result of results) expect(resultText(result)).toContain('one swarm at a time');
    expect(ran).toEqual([]);
  });
});

describe('a side-effecting call before an AgentSwarm in the same response', () => {
  it('is refused when the response ends, before it runs', async () => {
    const { toolset, ran } = setup();
    toolset.add(
      defineTool({
        name: 'WriteFile',
        description: '',
        params: z.object({ n: z.number() }),
        effect: 'writes-files',
        approval: () => ({ action: 'auto', description: '' }),
        call: ({ n }) => {
          ran.push(`WriteFile ${n}`);
          return toolOk('written');
        },
      }),
    );
    const { dispatch, endStream } = openDispatch();
    const write = Promise.resolve(toolset.handle(toolCall('w', 'WriteFile', { n: 1 }), dispatch));
    const swarm = Promise.resolve(toolset.handle(toolCall('s', 'AgentSwarm', { n: 2 }), dispatch));
    endStream(true);
    for (const result of [await write, await swarm]) {
      expect(toolErrorKind(result.return_value)).toBe('policy_denied');
      expect(resultText(result)).toContain('AgentSwarm must be the only tool call');
    }
    expect(ran).toEqual([]);
  });
});
