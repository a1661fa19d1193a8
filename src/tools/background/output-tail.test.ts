import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readOutputTail, tailLines } from './output-tail.js';
import { makeTempDir, removeDir } from './test-support/task-harness.js';

let dir: string;
beforeEach(async () => {
  dir = await makeTempDir('kimi-ts-tail-');
});
afterEach(async () => {
  await removeDir(dir);
});

describe('readOutputTail', () => {
  it('reads a whole small file', async () => {
    await writeFile(join(dir, 'out'), 'abc\n');
    expect(await readOutputTail(join(dir, 'out'), 10)).toEqual({
      text: 'abc\n',
      exists: true,
      sizeBytes: 4,
      previewBytes: 4,
      truncated: false,
    });
  });

  it('drops a character cut at the start of the tail', async () => {
    await writeFile(join(dir, 'out'), 'xé€z');
    // "€" is 3 bytes; the last 5 bytes start inside "é".
    const tail = await readOutputTail(join(dir, 'out'), 5);
    expect(tail).toMatchObject({ text: '€z', truncated: true, sizeBytes: 7, previewBytes: 4 });
  });

  it('reports a missing file', async () => {
    expect(await readOutputTail(join(dir, 'none'), 10)).toMatchObject({ exists: false, text: '' });
  });
});

describe('tailLines', () => {
  it('keeps the last lines, then the last characters', () => {
    expect(tailLines('a\nb\nc\n\n', 2, 100)).toBe('b\nc');
    expect(tailLines('one\ntwo', 5, 4)).toBe('\ntwo');
  });
});
