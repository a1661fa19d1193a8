import { describe, expect, it } from 'vitest';
import { Approval } from '../../toolset/approval/approval.js';
import { KimiToolset } from '../../toolset/kimi-toolset.js';
import { dispatchAll, toolCall } from '../../toolset/test-support/dispatch.js';
import { withTestPolicy } from '../../toolset/test-support/test-policy.js';
import type { AgentRole, SubagentRunner, SwarmRunRequest } from '../runtime.js';

/** A runner that records the swarms the tool asked for. */
function recordingRunner() {
  const swarms: SwarmRunRequest[] = [];
  const runner: SubagentRunner = {
    types: [{ name: 'coder', description: 'Writes code.', whenToUse: '' }],
    run: async () => {
      throw new Error('AgentSwarm never starts a single agent');
    },
    runSwarm: async (request) => {
      swarms.push(request);
      return { isError: false, output: '<agent_swarm_result/>', message: '', brief: 'Swarm of 2' };
    },
  };
  return { runner, swarms };
}

async function loadSwarm(runner: SubagentRunner, role: AgentRole = 'root') {
  const toolset = new KimiToolset(withTestPolicy({ approval: new Approval() }));
  await toolset.loadTools(
    ['kimi-ts/tools/agent/agent-swarm:AgentSwarm'],
    { subagents: runner, role },
    { baseDir: '/' },
  );
  const call = async (args: unknown) =>
    (await dispatchAll(toolset, [toolCall('call-9', 'AgentSwarm', args)]))[0]!;
  return { toolset, call };
}

describe('AgentSwarm tool', () => {
  it("publishes Kimi Code's parameters plus max_concurrency and isolation", async () => {
    const { toolset } = await loadSwarm(recordingRunner().runner);
    const tool = toolset.find('AgentSwarm')!;
    expect(tool.description).toContain('- `coder`: Writes code.');
    expect(tool.description).toContain('{{item}}');
    const schema = tool.parameters as {
      properties: Record<string, Record<string, unknown>>;
      required: string[];
    };
    expect(Object.keys(schema.properties)).toEqual([
      'description',
      'subagent_type',
      'prompt_template',
      'items',
      'resume_agent_ids',
      'model',
      'max_concurrency',
      'isolation',
    ]);
    expect(schema.required).toEqual(['description']);
    expect(schema.properties.max_concurrency?.default).toBe(4);
  });

  it('fills the template per item and passes the swarm with its defaults, asking nothing', async () => {
    const { runner, swarms } = recordingRunner();
    const { call } = await loadSwarm(runner);
    const result = await call({
      description: 'Review',
      prompt_template: 'Review {{item}} now; {{item}} only.',
      items: ['a.ts', '../../etc/passwd; rm -rf ~'],
    });
    expect(result.return_value).toMatchObject({ is_error: false, output: '<agent_swarm_result/>' });
    expect(swarms).toEqual([
      {
        description: 'Review',
        subagentType: 'coder',
        model: null,
        items: [
          { item: 'a.ts', prompt: 'Review a.ts now; a.ts only.' },
          {
            item: '../../etc/passwd; rm -rf ~',
            prompt: 'Review ../../etc/passwd; rm -rf ~ now; ../../etc/passwd; rm -rf ~ only.',
          },
        ],
        resume: [],
        maxConcurrency: 4,
        isolation: 'none',
        parentToolCallId: 'call-9',
        signal: expect.any(AbortSignal),
        // The calling run (driven directly here: no wire), where the subagents' events go.
        parentRun: { wire: null, approvalSource: undefined },
      },
    ]);
  });

  it.each([
    [{ description: 'd', prompt_template: 'Do {{item}}', items: ['one'] }, 'at least 2 items'],
    [
      { description: 'd', prompt_template: 'Do it', items: ['a', 'b'] },
      'must include the {{item}} placeholder',
    ],
    [{ description: 'd', items: ['a', 'b'] }, 'prompt_template is required'],
    [
      { description: 'd', prompt_template: 'Do {{item}}', items: ['a', 'a'] },
      'Duplicate subagent prompts from items 1 and 2',
    ],
    [
      { description: 'd', prompt_template: 'Do {{item}}', items: ['a', 'b'], max_concurrency: 0 },
      'max_concurrency',
    ],
    [
      { description: 'd', prompt_template: 'Do {{item}}', items: ['a', 'b'], isolation: 'chroot' },
      'isolation',
    ],
  ])('refuses %j before anything starts', async (args, message) => {
    const { runner, swarms } = recordingRunner();
    const { call } = await loadSwarm(runner);
    const result = await call(args);
    expect(result.return_value.is_error).toBe(true);
    expect(result.return_value.message).toContain(message);
    expect(swarms).toHaveLength(0);
  });

  it('takes resumes alone (one is enough) and resumes with items', async () => {
    const { runner, swarms } = recordingRunner();
    const { call } = await loadSwarm(runner);
    await call({ description: 'd', resume_agent_ids: { a12345678: 'continue' } });
    await call({
      description: 'd',
      resume_agent_ids: { a12345678: 'go on' },
      prompt_template: 'x {{item}}',
      items: ['1'],
    });
    expect(swarms.map((s) => [s.resume, s.items])).toEqual([
      [[{ agentId: 'a12345678', prompt: 'continue' }], []],
      [[{ agentId: 'a12345678', prompt: 'go on' }], [{ item: '1', prompt: 'x 1' }]],
    ]);
  });

  it('refuses to run inside a subagent', async () => {
    const { runner, swarms } = recordingRunner();
    const { call } = await loadSwarm(runner, 'subagent');
    const result = await call({ description: 'd', prompt_template: '{{item}}', items: ['a', 'b'] });
    expect(result.return_value).toMatchObject({
      is_error: true,
      message: 'Subagents cannot launch other subagents.',
    });
    expect(swarms).toHaveLength(0);
  });
});
