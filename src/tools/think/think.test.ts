import { describe, expect, it } from 'vitest';
import { Approval } from '../../toolset/approval/approval.js';
import { KimiToolset } from '../../toolset/kimi-toolset.js';
import { dispatchAll, toolCall } from '../../toolset/test-support/dispatch.js';
import { withTestPolicy } from '../../toolset/test-support/test-policy.js';
import { toolErrorKind } from '../../toolset/tool-errors.js';

describe('Think', () => {
  it('logs the thought and returns nothing else', async () => {
    const toolset = new KimiToolset(withTestPolicy({ approval: new Approval() }));
    await toolset.loadTools(['kimi-ts/tools/think/think:Think'], {}, { baseDir: '/' });
    const [logged, missing] = await dispatchAll(toolset, [
      toolCall('t1', 'Think', { thought: 'The failing test only breaks on Windows paths.' }),
      toolCall('t2', 'Think', {}),
    ]);
    expect(logged!.return_value).toEqual({
      is_error: false,
      output: '',
      message: 'Thought logged',
      display: [],
    });
    expect(toolErrorKind(missing!.return_value)).toBe('validate');
    expect(toolset.find('Think')?.effect).toBe('read-only');
  });
});
