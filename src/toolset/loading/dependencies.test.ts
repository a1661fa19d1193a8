import { describe, expect, it } from 'vitest';
import { KimiToolset } from '../kimi-toolset.js';
import { dispatchAll, toolCall } from '../test-support/dispatch.js';
import { testPolicy } from '../test-support/test-policy.js';
import { toolFactory } from './dependencies.js';

describe('typed tool factories', () => {
  it('loads a built-in TypeScript tool module through a kimi-ts/ specifier', async () => {
    const toolset = new KimiToolset({ policy: testPolicy({ workDir: process.cwd() }) });
    await toolset.loadTools(
      ['kimi-ts/toolset/test-support/echo-tool:EchoTool'],
      { workDir: '/repo', descriptionVars: { KIMI_WORK_DIR: '/repo' } },
      { baseDir: '/nowhere' },
    );
    expect(toolset.tools[0]).toMatchObject({
      name: 'EchoBack',
      description: 'Echoes text back, from /repo.',
    });
    const [result] = await dispatchAll(toolset, [toolCall('1', 'EchoBack', { text: 'hi' })]);
    expect(result!.return_value.output).toBe('hi @ /repo');
  });

  it('types the injected dependencies by name', () => {
    const factory = toolFactory(['workDir'], ({ workDir }, kit) =>
      kit.defineTool({
        name: 'T',
        description: '',
        params: kit.z.object({}),
        effect: 'read-only',
        call: () => kit.toolOk(workDir.toUpperCase()),
      }),
    );
    expect(factory.dependencies).toEqual(['workDir']);
    // @ts-expect-error an unknown dependency name does not type-check
    toolFactory(['nonsense'], (_deps, kit) =>
      kit.defineTool({
        name: 'X',
        description: '',
        params: kit.z.object({}),
        effect: 'read-only',
        call: () => kit.toolOk(),
      }),
    );
  });
});
