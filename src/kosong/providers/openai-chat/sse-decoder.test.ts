import { describe, expect, it } from 'vitest';
import { ChatProviderError } from '../../errors.js';
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

describe('SseDecoder: an event without end', () => {
  it('gives up on a line or an event longer than the bound, whichever way it comes', () => {
    const line = new SseDecoder(1000);
    expect(() => {
      for (let i = 0; i < 100; i++) line.push(`${i === 0 ? 'data: ' : ''}${'x'.repeat(50)}`);
    }).toThrow(ChatProviderError);
    const lines = new SseDecoder(1000);
    expect(() => {
      for (let i = 0; i < 100; i++) lines.push(`data: ${'x'.repeat(50)}\n`);
    }).toThrow(ChatProviderError);
    // Many small events add up to nothing: the bound is per event.
    const many = new SseDecoder(1000);
    for (let i = 0; i < 100; i++) expect(many.push(`data: ${'x'.repeat(50)}\n\n`)).toHaveLength(1);
  });

  it('counts each data line as the memory it takes: many empty or short lines reach the bound', () => {
    // Each line is kept as its own string until the event ends: 16 Mi lines of `data:xy` were
    // ~240 MB of heap under a bound of 16 Mi characters.
    const empty = new SseDecoder(32 * 1024);
    expect(() => empty.push('data:\n'.repeat(2000))).toThrow(ChatProviderError);
    const short = new SseDecoder(32 * 1024);
    expect(() => short.push('data:xy\n'.repeat(2000))).toThrow(ChatProviderError);
    // One ordinary event of many lines is well within it.
    expect(new SseDecoder(32 * 1024).push(`${'data: {}\n'.repeat(100)}\n`)).toHaveLength(1);
  });

  it('looks at a long line cut in many pieces once, not once per piece', () => {
    const decoder = new SseDecoder();
    const piece = 'x'.repeat(64 * 1024);
    const started = process.cpuUsage();
    decoder.push('data: ');
    for (let i = 0; i < 250; i++) decoder.push(piece);
    expect(decoder.push('\n\n')[0]?.data.length).toBe(250 * piece.length);
    const used = process.cpuUsage(started);
    // Scanning the whole pending line at each piece was ~2 G character reads, over a second of CPU.
    expect((used.user + used.system) / 1000).toBeLessThan(400);
  });
});
