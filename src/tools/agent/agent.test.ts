import { describe, expect, it } from 'vitest';
import { Approval } from '../../toolset/approval/approval.js';
import { KimiToolset } from '../../toolset/kimi-toolset.js';
import { dispatchAll, toolCall } from '../../toolset/test-support/dispatch.js';
import { withTestPolicy } from '../../toolset/test-support/test-policy.js';
import type { AgentRole, SubagentRunner } from '../runtime.js';

type RunRequest = Parameters<SubagentRunner['run']>[0];

/** A runner that records what the tool asked for and answers as told. */
function recordingRunner(answer: Awaited<ReturnType<SubagentRunner['run']>>) {
  const requests: RunRequest[] = [];
  const runner: SubagentRunner = {
    types: [
      { name: 'coder', description: 'Writes code.', whenToUse: 'For coding tasks.' },
      { name: 'explore', description: 'Reads code.', whenToUse: '' },
    ],
    run: async (request) => {
      requests.push(request);
      return answer;
    },
    runSwarm: async () => {
      throw new Error('the Agent tool never starts a swarm');
    },
  };
  return { runner, requests };
}

async function loadAgent(runner: SubagentRunner, role: AgentRole = 'root') {
  // No yolo, no UI: a tool that asked for approval would be refused, so a success proves it did not.
  const toolset = new KimiToolset(withTestPolicy({ approval: new Approval() }));
  await toolset.loadTools(['kimi-ts/tools/agent/agent:Agent'], { subagents: runner, role }, { baseDir: '/' });
  const call = async (args: unknown) => (await dispatchAll(toolset, [toolCall('call-7', 'Agent', args)]))[0]!;
  return { toolset, call };
}

const ok = { isError: false, output: 'agent_id: a12345678', message: '', brief: '' };

describe('Agent tool', () => {
  it('lists the available types in its description and publishes Kimi CLI parameters', async () => {
    const { toolset } = await loadAgent(recordingRunner(ok).runner);
    const tool = toolset.find('Agent')!;
    expect(tool.description).toContain('- `coder`: Writes code.\n  When to use: For coding tasks.');
    expect(tool.description).toContain('- `explore`: Reads code.');
    expect(tool.description).not.toContain('${');
    const schema = tool.parameters as {
      properties: Record<string, Record<string, unknown>>;
      required: string[];
    };
    expect(Object.keys(schema.properties)).toEqual([
      'description',
      'prompt',
      'subagent_type',
      'model',
      'resume',
      'run_in_background',
      'timeout',
      'isolation',
    ]);
    expect(schema.required).toEqual(['description', 'prompt']);
    expect(schema.properties.subagent_type?.default).toBe('coder');
    expect(JSON.stringify(schema.properties.timeout)).toContain('"minimum":30');
    expect(JSON.stringify(schema.properties.timeout)).toContain('"maximum":3600');
  });

  it('runs without asking for approval and passes the request with its defaults', async () => {
    const { runner, requests } = recordingRunner(ok);
    const { call } = await loadAgent(runner);
    const result = await call({ description: 'Fix the bug', prompt: 'Fix it.' });
    expect(result.return_value).toMatchObject({ is_error: false, output: 'agent_id: a12345678' });
    expect(requests).toHaveLength(1);
    expect(requests[0]).toMatchObject({
      description: 'Fix the bug',
      prompt: 'Fix it.',
      subagentType: 'coder',
      model: null,
      resume: null,
      runInBackground: false,
      timeoutS: null,
      parentToolCallId: 'call-7',
      isolation: 'none',
    });
  });

  it.each([
    [29, true],
    [30, false],
    [3600, false],
    [3601, true],
  ])('timeout %i is refused: %s', async (timeout, refused) => {
    const { runner, requests } = recordingRunner(ok);
    const { call } = await loadAgent(runner);
    const result = await call({ description: 'd', prompt: 'p', timeout });
    expect(result.return_value.is_error).toBe(refused);
    expect(requests).toHaveLength(refused ? 0 : 1);
  });

  it('turns a runner error into a tool error with its brief', async () => {
    const { runner } = recordingRunner({
      isError: true,
      output: '',
      message: 'Unknown model alias: x',
      brief: 'Invalid model alias',
    });
    const { call } = await loadAgent(runner);
    const result = await call({ description: 'd', prompt: 'p', model: 'x' });
    expect(result.return_value).toEqual({
      is_error: true,
      output: '',
      message: 'Unknown model alias: x',
      display: [{ type: 'brief', text: 'Invalid model alias' }],
    });
  });

  it('refuses to run inside a subagent', async () => {
    const { runner, requests } = recordingRunner(ok);
    const { call } = await loadAgent(runner, 'subagent');
    const result = await call({ description: 'd', prompt: 'p' });
    expect(result.return_value).toMatchObject({
      is_error: true,
      message: 'Subagents cannot launch other subagents.',
      display: [{ type: 'brief', text: 'Agent unavailable' }],
    });
    expect(requests).toHaveLength(0);
  });
});
