import { readdirSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readBoundedLines, type SkippedLine } from './bounded-lines.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'bounded-lines-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function read(content: string | Buffer, maxLineBytes: number, stopAt?: number) {
  const path = join(dir, `f-${Math.random()}`);
  await writeFile(path, content);
  const lines: [number, string][] = [];
  const skipped: SkippedLine[] = [];
  const result = await readBoundedLines(
    path,
    (text, line) => {
      lines.push([line, text]);
      return line === stopAt;
    },
    { maxLineBytes, onSkipped: (s) => skipped.push(s) },
  );
  return { lines, skipped, result };
}

describe('readBoundedLines', () => {
  it('reads lines, CRLF and an unterminated last line', async () => {
    const { lines, result } = await read('a\r\nbb\n\nlast', 100);
    expect(lines).toEqual([
      [1, 'a'],
      [2, 'bb'],
      [3, ''],
      [4, 'last'],
    ]);
    expect(result).toEqual({ lines: 4, terminated: false, stopped: false });
  });

  it('skips a line longer than the limit and says which, reading the rest', async () => {
    const { lines, skipped } = await read(`one\n${'x'.repeat(50)}\nthree\n${'y'.repeat(20)}`, 10);
    expect(lines).toEqual([
      [1, 'one'],
      [3, 'three'],
    ]);
    expect(skipped).toEqual([
      { line: 2, bytes: 50 },
      { line: 4, bytes: 20 },
    ]);
  });

  it('skips a long line across read chunks (3 MiB with a 1 MiB limit)', async () => {
    const big = Buffer.alloc(3 * 1024 * 1024 + 5, 0x61);
    const { lines, skipped } = await read(
      Buffer.concat([Buffer.from('a\n'), big, Buffer.from('\nb\n')]),
      1024 * 1024,
    );
    expect(lines).toEqual([
      [1, 'a'],
      [3, 'b'],
    ]);
    expect(skipped).toEqual([{ line: 2, bytes: big.length }]);
  });

  it('keeps multi-byte characters whole across chunks and stops when asked', async () => {
    const text = `${'é'.repeat(700_000)}\nsecond\nthird\n`;
    const { lines, result } = await read(text, 16 * 1024 * 1024, 2);
    expect(lines[0]?.[1]).toBe('é'.repeat(700_000));
    expect(lines.map(([n]) => n)).toEqual([1, 2]);
    expect(result.stopped).toBe(true);
  });

  it('reads a range of a file (start and end inclusive)', async () => {
    const path = join(dir, 'range');
    await writeFile(path, 'zero\none\ntwo\n');
    const lines: string[] = [];
    const result = await readBoundedLines(path, (text) => void lines.push(text), { start: 5, end: 8 });
    expect(lines).toEqual(['one']);
    expect(result).toEqual({ lines: 1, terminated: true, stopped: false });
  });

  it('refuses a range that ends before it starts, and leaves no file open', async () => {
    const path = join(dir, 'bad-range');
    await writeFile(path, 'text\n');
    const open = () => readdirSync('/proc/self/fd').length;
    const before = open();
    for (let i = 0; i < 20; i++)
      await expect(readBoundedLines(path, () => undefined, { start: 4, end: 1 })).rejects.toMatchObject({
        code: 'ERR_OUT_OF_RANGE',
      });
    expect(open()).toBe(before);
  });

  it('fails on a folder: only a missing file reads as empty', async () => {
    await expect(readBoundedLines(dir, () => undefined)).rejects.toMatchObject({ code: 'EISDIR' });
  });

  it('reads a missing file as empty', async () => {
    expect(await readBoundedLines(join(dir, 'missing'), () => undefined)).toEqual({
      lines: 0,
      terminated: true,
      stopped: false,
    });
  });
});
