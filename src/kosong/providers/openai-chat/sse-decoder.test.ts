import { describe, expect, it } from 'vitest';
import { type ServerSentEvent, SseDecoder } from './sse-decoder.js';

/** Every event of `text` fed in pieces of `size` characters. */
function decode(text: string, size: number): ServerSentEvent[] {
  const decoder = new SseDecoder();
  const events: ServerSentEvent[] = [];
  for (let at = 0; at < text.length; at += size) events.push(...decoder.push(text.slice(at, at + size)));
  return [...events, ...decoder.finish()];
}

describe('SseDecoder', () => {
  it.each([
    [
      'LF',
      'data: a\n\ndata: b\n\n',
      [
        { event: null, data: 'a' },
        { event: null, data: 'b' },
      ],
    ],
    [
      'CRLF',
      'data: a\r\n\r\ndata: b\r\n\r\n',
      [
        { event: null, data: 'a' },
        { event: null, data: 'b' },
      ],
    ],
    [
      'CR alone',
      'data: a\r\rdata: b\r\r',
      [
        { event: null, data: 'a' },
        { event: null, data: 'b' },
      ],
    ],
    ['lines joined, named event', 'event: x\ndata: 1\ndata:2\n\n', [{ event: 'x', data: '1\n2' }]],
    ['comments and unknown fields', ': ping\nid: 7\nretry: 9\ndata: a\n\n', [{ event: null, data: 'a' }]],
    ['a blank line with nothing before it', '\n\n\ndata: a\n\n', [{ event: null, data: 'a' }]],
    ['an event the stream ends in', 'data: a\n\ndata: cut', [{ event: null, data: 'a' }]],
  ])('%s, cut anywhere', (_name, text, expected) => {
    for (const size of [1, 2, 3, 5, text.length]) expect(decode(text, size)).toEqual(expected);
  });
});
