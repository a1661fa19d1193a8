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
  it('adds up as a history grows, shrinks, changes early on and alternates with another conversation', () => {
    const first = message('user', 'first');
    const history: Message[] = [first, message('assistant', 'one')];
    const side: Message[] = [message('user', 'a subagent'), message('assistant', 'its answer')];
    const tools = [tool('a'), tool('b'), tool('c')];
    const check = (h: Message[], t: Tool[] = tools, system = 'sys') =>
      expect(bytes(system, h, t, { stream: true })).toBe(whole(system, h, t, { stream: true }));
    check(history);
    for (let step = 0; step < 3; step++) {
      history.push(message('user', `step ${step}`), message('assistant', `done ${step}`));
      check(history);
      // A subagent's requests between the main agent's, with other tools.
      side.push(message('user', `side ${step}`));
      check(side, [tools[2] as Tool]);
    }
    // An early message changed in place: the joined bytes after it are not used again.
    (history[1]?.content[0] as { text: string }).text = 'one, changed';
    check(history);
    history.push(message('user', 'after the change'));
    check(history);
    // Compaction or a rewind: a shorter history with the same first message, then another first one.
    check(history.slice(0, 3));
    check(history.slice(0, 5));
    check([message('user', 'a summary'), ...history.slice(4)]);
    // The tools in another order, one fewer, one more, and none; no system prompt.
    check(history, [tools[1] as Tool, tools[0] as Tool, tools[2] as Tool]);
    check(history, tools.slice(0, 2));
    check(history, [...tools, tool('d')]);
    check(history, []);
    check(history, tools, '');
    check([], tools, '');
  });
});
