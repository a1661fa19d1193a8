import { describe, expect, it } from 'vitest';
import { copyPart, mergeInPlace } from './merge.js';
import type { StreamedPart, ToolCall } from './message.js';

const call = (args: string | null): ToolCall => ({
  type: 'function',
  id: 'c1',
  function: { name: 'Shell', arguments: args },
});
const frag = (s: string | null): StreamedPart => ({ type: 'tool_call_part', arguments_part: s });

describe('mergeInPlace', () => {
  it.each<[string, StreamedPart, StreamedPart, boolean, StreamedPart]>([
    [
      'text + text',
      { type: 'text', text: 'a' },
      { type: 'text', text: 'b' },
      true,
      { type: 'text', text: 'ab' },
    ],
    [
      'text + think',
      { type: 'text', text: 'a' },
      { type: 'think', think: 'b' },
      false,
      { type: 'text', text: 'a' },
    ],
    [
      'think + think',
      { type: 'think', think: 'a' },
      { type: 'think', think: 'b' },
      true,
      { type: 'think', think: 'ab' },
    ],
    [
      'think + signature seals',
      { type: 'think', think: 'a' },
      { type: 'think', think: '', encrypted: 'sig' },
      true,
      { type: 'think', think: 'a', encrypted: 'sig' },
    ],
    [
      'signed think does not merge',
      { type: 'think', think: 'a', encrypted: 'sig' },
      { type: 'think', think: 'b' },
      false,
      { type: 'think', think: 'a', encrypted: 'sig' },
    ],
    ['tool call + fragment', call('{"a"'), frag(':1}'), true, call('{"a":1}')],
    ['tool call with null args + fragment', call(null), frag('{}'), true, call('{}')],
    ['tool call + null fragment', call('{}'), frag(null), true, call('{}')],
    ['tool call + tool call', call('{}'), call('{}'), false, call('{}')],
    ['fragment + fragment', frag('a'), frag('b'), true, frag('ab')],
    ['fragment + text', frag('a'), { type: 'text', text: 'b' }, false, frag('a')],
    [
      'image never merges',
      { type: 'image_url', image_url: { url: 'u' } },
      { type: 'image_url', image_url: { url: 'v' } },
      false,
      { type: 'image_url', image_url: { url: 'u' } },
    ],
  ])('%s', (_name, pending, next, merged, after) => {
    expect(mergeInPlace(pending, next)).toBe(merged);
    expect(pending).toEqual(after);
  });
});

describe('copyPart', () => {
  it('shares nothing mutable with the original', () => {
    const original: ToolCall = { ...call('{}'), extras: { nested: { a: 1 } } };
    const copy = copyPart(original);
    copy.function.arguments = 'changed';
    (copy.extras as { nested: { a: number } }).nested.a = 2;
    expect(original.function.arguments).toBe('{}');
    expect(original.extras).toEqual({ nested: { a: 1 } });
    const image: StreamedPart = { type: 'image_url', image_url: { url: 'u', id: null } };
    const imageCopy = copyPart(image);
    imageCopy.image_url.url = 'x';
    expect(image.image_url.url).toBe('u');
  });
});
