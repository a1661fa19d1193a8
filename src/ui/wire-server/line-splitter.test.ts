import { describe, expect, test } from 'vitest';
import { LineSplitter } from './line-splitter.js';

function split(chunks: (string | Buffer)[], maxBytes?: number, end = true) {
  const lines: string[] = [];
  let overflows = 0;
  const splitter = new LineSplitter(
    { onLine: (l) => lines.push(l), onOverflow: () => overflows++ },
    maxBytes,
  );
  for (const chunk of chunks) splitter.push(chunk);
  if (end) splitter.end();
  return { lines, overflows };
}

describe('LineSplitter', () => {
  test('splits on LF, strips a CR before it, and keeps empty lines', () => {
    expect(split(['a\r\nb\n\nc\n']).lines).toEqual(['a', 'b', '', 'c']);
  });

  test('joins a line split across chunks, including inside a multi-byte character', () => {
    const bytes = Buffer.from('{"t":"世界"}\n');
    const chunks = Array.from(bytes, (_, i) => bytes.subarray(i, i + 1));
    expect(split(chunks).lines).toEqual(['{"t":"世界"}']);
  });

  test('a last line without a newline counts only at the end of input', () => {
    expect(split(['x\ny'], undefined, false).lines).toEqual(['x']);
    expect(split(['x\ny']).lines).toEqual(['x', 'y']);
  });

  test('drops an over-long line up to its newline, reporting it once', () => {
    const { lines, overflows } = split(['ok\n', 'a'.repeat(6), 'b'.repeat(6), 'c\nnext\n'], 10);
    expect(lines).toEqual(['ok', 'next']);
    expect(overflows).toBe(1);
  });

  test('a line of exactly the limit is accepted', () => {
    expect(split(['0123456789\n'], 10).lines).toEqual(['0123456789']);
  });
});
