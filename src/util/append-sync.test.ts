import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { writeAllSync } from './append-sync.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('writeAllSync', () => {
  it('appends every byte, in order, after what the file held', () => {
    const dir = mkdtempSync(join(tmpdir(), 'append-sync-'));
    dirs.push(dir);
    const file = join(dir, 'log.jsonl');
    const fd = openSync(file, 'a');
    try {
      writeAllSync(fd, Buffer.from('first\n'));
      // Larger than a pipe's or a page's worth: the loop, not one lucky write.
      const big = Buffer.alloc(3 * 2 ** 20, 'x');
      writeAllSync(fd, big);
      writeAllSync(fd, Buffer.from('last ✓\n'));
    } finally {
      closeSync(fd);
    }
    const text = readFileSync(file, 'utf8');
    expect(text.length).toBe('first\n'.length + 3 * 2 ** 20 + 'last ✓\n'.length);
    expect(text.startsWith('first\nxxx')).toBe(true);
    expect(text.endsWith('xxxlast ✓\n')).toBe(true);
  });

  it('throws when the disk is full (the caller cuts the partial record back)', () => {
    const fd = openSync('/dev/full', 'w');
    try {
      expect(() => writeAllSync(fd, Buffer.from('record\n'))).toThrow(/ENOSPC/);
    } finally {
      closeSync(fd);
    }
  });
});
