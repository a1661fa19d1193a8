import { describe, expect, it } from 'vitest';
import type { Message } from '../../message.js';
import { parseToolInput, toAnthropicMessages } from './message-conversion.js';

const user = (text: string): Message => ({ role: 'user', content: [{ type: 'text', text }] });
const toolResult = (id: string, text: string): Message => ({
  role: 'tool',
  tool_call_id: id,
  content: [{ type: 'text', text }],
});

describe('toAnthropicMessages', () => {
  it('turns images into base64 or URL sources and unsupported media into a note', () => {
    const out = toAnthropicMessages([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'look' },
          { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } },
          { type: 'image_url', image_url: { url: 'https://example.com/cat.jpg' } },
          { type: 'image_url', image_url: { url: 'data:image/tiff;base64,AAAA' } },
          { type: 'audio_url', audio_url: { url: 'data:audio/mp3;base64,AAAA' } },
          { type: 'think', think: 'users do not think here' },
        ],
      },
    ]);
    expect(out).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'look' },
          { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' } },
          { type: 'image', source: { type: 'url', url: 'https://example.com/cat.jpg' } },
          { type: 'text', text: expect.stringContaining('image/tiff') },
          { type: 'text', text: expect.stringContaining('audio') },
        ],
      },
    ]);
  });

  it('keeps tool results first when a user message comes before them', () => {
    const out = toAnthropicMessages([
      {
        role: 'assistant',
        content: [],
        tool_calls: [{ type: 'function', id: 'a', function: { name: 'X', arguments: '{}' } }],
      },
      user('steer: hurry'),
      toolResult('a', 'done'),
    ]);
    expect(out[1]).toEqual({
      role: 'user',
      content: [
        { type: 'tool_result', tool_use_id: 'a', content: [{ type: 'text', text: 'done' }] },
        { type: 'text', text: 'steer: hurry' },
      ],
    });
  });

  it('drops assistant messages left empty and merges the user messages around them', () => {
    const out = toAnthropicMessages([
      user('one'),
      {
        role: 'assistant',
        content: [
          { type: 'think', think: 'unsigned' },
          { type: 'text', text: '' },
        ],
      },
      user('two'),
    ]);
    expect(out).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'one' },
          { type: 'text', text: 'two' },
        ],
      },
    ]);
  });

  it('sends a system message from the history as tagged user text, and skips empty user messages', () => {
    const out = toAnthropicMessages([
      { role: 'system', content: [{ type: 'text', text: 'Plan mode is on.' }] },
      { role: 'user', content: [{ type: 'text', text: '' }] },
    ]);
    expect(out).toEqual([
      { role: 'user', content: [{ type: 'text', text: '<system>Plan mode is on.</system>' }] },
    ]);
  });

  it('keeps images in tool results and drops their think parts', () => {
    const out = toAnthropicMessages([
      {
        role: 'tool',
        tool_call_id: 'img',
        content: [
          { type: 'think', think: 'x' },
          { type: 'image_url', image_url: { url: 'data:image/webp;base64,UklGRg==' } },
        ],
      },
    ]);
    expect(out).toEqual([
      {
        role: 'user',
        content: [
          {
            type: 'tool_result',
            tool_use_id: 'img',
            content: [
              { type: 'image', source: { type: 'base64', media_type: 'image/webp', data: 'UklGRg==' } },
            ],
          },
        ],
      },
    ]);
  });
});

describe('parseToolInput', () => {
  it.each([
    ['{"a":1}', { a: 1 }],
    ['', {}],
    [null, {}],
    ['{"a":', {}],
    ['[1,2]', {}],
    ['"text"', {}],
    ['null', {}],
  ])('parses %j as %j', (args, expected) => {
    expect(parseToolInput(args)).toEqual(expected);
  });
});
