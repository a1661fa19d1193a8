import { afterEach, describe, expect, it } from 'vitest';
import { FileToolsHarness } from './test-support/file-tools-harness.js';

let h: FileToolsHarness;
afterEach(async () => {
  await h.dispose();
});

describe('loading the file tools from module:Export specs', () => {
  it('loads every tool with its description; ReadMediaFile only for media-capable models', async () => {
    h = await FileToolsHarness.create();
    expect(h.toolset.tools.map((tool) => tool.name)).toEqual([
      'ReadFile',
      'Glob',
      'Grep',
      'WriteFile',
      'StrReplaceFile',
    ]);
    for (const tool of h.toolset.allTools) {
      expect(tool.description).not.toMatch(/\$\{(MAX_|HEAD_|TIMEOUT_|KIMI_WORK_DIR)/);
      expect(tool.description).toContain(h.workDir);
    }
    expect(h.toolset.find('ReadFile')!.description).toContain('102400 bytes');
    expect(h.toolset.find('ReadFile')!.effect).toBe('reads-files');
    expect(h.toolset.find('WriteFile')!.effect).toBe('writes-files');
    await h.dispose();
    h = await FileToolsHarness.create({ modelCapabilities: ['image_in'] });
    expect(h.toolset.find('ReadMediaFile')?.description).toContain('images only');
  });

  it('publishes the parameters under Kimi CLI names, with defaults and bounds', async () => {
    h = await FileToolsHarness.create();
    const schema = (name: string) =>
      h.toolset.find(name)!.parameters as { properties: Record<string, unknown>; required?: string[] };
    expect(Object.keys(schema('ReadFile').properties)).toEqual(['path', 'line_offset', 'n_lines']);
    expect(schema('ReadFile').required).toEqual(['path']);
    expect(schema('ReadFile').properties.line_offset).toMatchObject({
      type: 'integer',
      minimum: -1000,
      default: 1,
    });
    expect(Object.keys(schema('Grep').properties)).toEqual([
      'pattern',
      'path',
      'glob',
      'output_mode',
      '-B',
      '-A',
      '-C',
      '-n',
      '-i',
      'type',
      'head_limit',
      'offset',
      'multiline',
      'include_ignored',
    ]);
    expect(schema('Grep').properties.head_limit).toMatchObject({ default: 250, minimum: 0 });
    expect(schema('Glob').properties.directory).toMatchObject({ default: null });
    expect(schema('WriteFile').properties.mode).toMatchObject({
      enum: ['overwrite', 'append'],
      default: 'overwrite',
    });
    expect(Object.keys(schema('StrReplaceFile').properties)).toEqual(['path', 'edit']);
  });
});
