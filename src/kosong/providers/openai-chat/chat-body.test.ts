import { describe, expect, it } from 'vitest';
import { type Message, message } from '../../message.js';
import type { Tool } from '../../tool.js';
import { chatBodyBytes } from './chat-body.js';
import { type ChatRequestTool, convertMessage, convertTool, type HistoryDialect } from './chat-request.js';

const dialect: HistoryDialect = {
  reasoningKey: 'reasoning_content',
  keepEmptyReasoning: false,
  omitEmptyContentWithToolCalls: false,
};
const tool = (name: string): Tool => ({
  name,
  description: `does ${name} — naïve 🙂`,
  parameters: { type: 'object', properties: { path: { type: 'string' } } },
});

/** The body as JSON.stringify writes it whole: what the kept pieces must add up to. */
function whole(
  systemPrompt: string,
  history: Message[],
  tools: Tool[],
  rest: Record<string, unknown>,
  d = dialect,
) {
  return JSON.stringify({
    model: 'm',
    messages: [
      ...(systemPrompt ? [{ role: 'system', content: systemPrompt }] : []),
      ...history.map((m) => convertMessage(m, d)),
    ],
    ...(tools.length > 0 ? { tools: tools.map(convertTool) } : {}),
    ...rest,
  });
}

function bytes(
  systemPrompt: string,
  history: Message[],
  tools: Tool[],
  rest: Record<string, unknown>,
  d = dialect,
) {
  return chatBodyBytes({
    model: 'm',
    systemPrompt,
    history,
    dialect: d,
    tools,
    convertTool: (t): ChatRequestTool => convertTool(t),
    toolDialect: 'test',
    rest,
  }).toString('utf8');
}

describe('chatBodyBytes', () => {
  it('adds up to JSON.stringify of the whole body, with and without system prompt, tools and rest', () => {
    const history: Message[] = [
      message('user', 'hi "there"\n\ud800'),
      {
        role: 'assistant',
        content: [
          { type: 'think', think: 'hmm' },
          { type: 'text', text: '' },
        ],
        tool_calls: [
          { type: 'function', id: 'c1', function: { name: 'ReadFile', arguments: '{"path":"a"}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'c1', content: [{ type: 'text', text: 'file' }] },
    ];
    const tools = [tool('a'), tool('b')];
    for (const [system, t, rest] of [
      ['sys', tools, { stream: true, temperature: 0.5, skip: undefined }],
      ['', [], {}],
      ['sys', [], { stream: true }],
    ] as const) {
      expect(bytes(system, history, [...t], rest)).toBe(whole(system, history, [...t], rest));
      // Again, from the kept pieces.
      expect(bytes(system, history, [...t], rest)).toBe(whole(system, history, [...t], rest));
    }
  });

  it('writes a message or a tool changed in place again: no stale piece reaches the model', () => {
    const user = message('user', 'first words');
    const assistant: Message = { role: 'assistant', content: [{ type: 'text', text: 'a' }] };
    const history = [user, assistant];
    const t = tool('a');
    bytes('sys', history, [t], {});
    (user.content[0] as { text: string }).text = 'other words';
    assistant.content.push({ type: 'text', text: 'b' });
    assistant.tool_calls = [{ type: 'function', id: 'x', function: { name: 'Shell', arguments: '{}' } }];
    t.description = 'a new description';
    expect(bytes('sys', history, [t], {})).toBe(whole('sys', history, [t], {}));
    // A call's arguments, a part's kind and a message's name, each changed in place after a request.
    (assistant.tool_calls[0] as { function: { arguments: string } }).function.arguments = '{"a":1}';
    expect(bytes('sys', history, [t], {})).toBe(whole('sys', history, [t], {}));
    assistant.content[0] = { type: 'think', think: 'a' };
    expect(bytes('sys', history, [t], {})).toBe(whole('sys', history, [t], {}));
    user.name = 'someone';
    expect(bytes('sys', history, [t], {})).toBe(whole('sys', history, [t], {}));
    // Another tool under the same schema object (a toolset makes new Tool objects each step).
    const renamed = { ...t, name: 'renamed' };
    expect(bytes('sys', history, [renamed, t], {})).toBe(whole('sys', history, [renamed, t], {}));
    t.parameters = { type: 'object' };
    expect(bytes('sys', history, [t], {})).toBe(whole('sys', history, [t], {}));
    // The same message under another dialect is written for that dialect.
    const other: HistoryDialect = {
      reasoningKey: '',
      keepEmptyReasoning: true,
      omitEmptyContentWithToolCalls: true,
    };
    expect(bytes('sys', history, [t], {}, other)).toBe(whole('sys', history, [t], {}, other));
  });
});
