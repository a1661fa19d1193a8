import { describe, expect, it } from 'vitest';
import type { Message } from './message.js';
import { messageFromJSON, messageToJSON } from './message-json.js';

describe('message JSON', () => {
  it('writes a single text part as a plain string and drops absent top-level fields', () => {
    expect(JSON.stringify(messageToJSON({ role: 'user', content: [{ type: 'text', text: 'hi' }] }))).toBe(
      '{"role":"user","content":"hi"}',
    );
  });

  it('keeps null fields inside part lists, as Kimi CLI context files do', () => {
    const msg: Message = {
      role: 'assistant',
      content: [
        { type: 'think', think: 'hmm' },
        { type: 'text', text: 'ok' },
        { type: 'image_url', image_url: { url: 'data:x' } },
      ],
      tool_calls: [
        { type: 'function', id: 'c1', function: { name: 'Shell', arguments: '{"command":"ls"}' } },
      ],
    };
    expect(JSON.stringify(messageToJSON(msg))).toBe(
      '{"role":"assistant","content":[{"type":"think","think":"hmm","encrypted":null},{"type":"text","text":"ok"},' +
        '{"type":"image_url","image_url":{"url":"data:x","id":null}}],' +
        '"tool_calls":[{"type":"function","id":"c1","function":{"name":"Shell","arguments":"{\\"command\\":\\"ls\\"}"}}]}',
    );
  });

  it.each<Message>([
    { role: 'system', content: [{ type: 'text', text: 'sys' }] },
    { role: 'user', content: [] },
    {
      role: 'user',
      content: [
        { type: 'text', text: 'a' },
        { type: 'video_url', video_url: { url: 'v', id: 'f1' } },
      ],
    },
    {
      role: 'assistant',
      content: [
        { type: 'think', think: 't', encrypted: 'sig' },
        { type: 'text', text: 'x' },
      ],
    },
    { role: 'tool', content: [{ type: 'text', text: 'out' }], tool_call_id: 'c1' },
    {
      role: 'assistant',
      content: [],
      tool_calls: [
        { type: 'function', id: 'c2', function: { name: 'A', arguments: '{}' }, extras: { k: 1 } },
      ],
    },
  ])('round-trips %j', (msg) => {
    const parsed = messageFromJSON(JSON.parse(JSON.stringify(messageToJSON(msg))));
    expect(parsed).toEqual(msg);
  });

  it('reads Kimi CLI context lines: null content, string content, unknown extra fields', () => {
    expect(messageFromJSON({ role: 'assistant', content: null, tool_calls: [] })).toEqual({
      role: 'assistant',
      content: [],
    });
    expect(messageFromJSON({ role: 'user', content: 'hi' })).toEqual({
      role: 'user',
      content: [{ type: 'text', text: 'hi' }],
    });
    const call = messageFromJSON({
      role: 'assistant',
      content: '',
      tool_calls: [
        { type: 'function', id: 'x', function: { name: 'ReadFile', arguments: '{}' }, extras: null },
      ],
    });
    expect(call.tool_calls).toEqual([
      { type: 'function', id: 'x', function: { name: 'ReadFile', arguments: '{}' } },
    ]);
  });

  it('rejects bad input with a message naming the field', () => {
    expect(() => messageFromJSON({ role: 'robot', content: 'x' })).toThrow(/role/);
    expect(() => messageFromJSON({ role: 'user', content: [{ type: 'text' }] })).toThrow(
      /content\[0\]\.text|content\.0\.text/,
    );
  });
});
