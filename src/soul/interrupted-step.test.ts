import { describe, expect, it } from 'vitest';
import { toolOk } from '../kosong/tool.js';
import { interruptedStepMessages } from './interrupted-step.js';

const call = (id: string) => ({
  type: 'function' as const,
  id,
  function: { name: 'Shell', arguments: '{}' },
});

describe('interruptedStepMessages', () => {
  it('pairs every call with its result or an interrupted result, after the assistant message', () => {
    const messages = interruptedStepMessages({
      message: { role: 'assistant', content: [{ type: 'text', text: 'running both' }] },
      calls: [
        { call: call('a'), result: { tool_call_id: 'a', return_value: toolOk('done') } },
        { call: call('b'), result: null },
      ],
    });
    expect(messages.map((m) => [m.role, m.tool_call_id ?? null])).toEqual([
      ['assistant', null],
      ['tool', 'a'],
      ['tool', 'b'],
    ]);
    expect(messages[0]?.tool_calls?.map((c) => c.id)).toEqual(['a', 'b']);
    expect(JSON.stringify(messages[1]?.content)).toContain('done');
    expect(JSON.stringify(messages[2]?.content)).toContain('The user interrupted this tool call');
  });

  it('records nothing when the model had said nothing visible and called nothing', () => {
    expect(
      interruptedStepMessages({
        message: { role: 'assistant', content: [{ type: 'think', think: 'hmm' }] },
        calls: [],
      }),
    ).toEqual([]);
  });
});
