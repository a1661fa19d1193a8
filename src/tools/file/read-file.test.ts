import { mkdir, truncate, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { briefOf, FileToolsHarness, outputText } from './test-support/file-tools-harness.js';

let h: FileToolsHarness;
beforeEach(async () => {
  h = await FileToolsHarness.create({ specs: ['kimi-ts/tools/file/read-file:ReadFile'] });
});
afterEach(async () => {
  await h.dispose();
});

const numbered = (count: number, from = 1): string =>
  Array.from({ length: count }, (_, i) => `line ${from + i}\n`).join('');

async function put(name: string, content: string | Buffer): Promise<string> {
  const path = join(h.workDir, name);
  await writeFile(path, content);
  return path;
}

describe('ReadFile: output and budgets', () => {
  it('numbers lines 6 wide with a TAB, keeps the last line without a newline as is', async () => {
    await put('a.txt', 'alpha\nbeta\r\ngamma');
    const result = await h.call('ReadFile', { path: 'a.txt' });
    expect(result.is_error).toBe(false);
    expect(result.output).toBe('     1\talpha\n     2\tbeta\n     3\tgamma');
    expect(result.message).toBe(
      '3 lines read from file starting from line 1. Total lines in file: 3. End of file reached.',
    );
  });

  it('reads an empty file, and shows invalid UTF-8 as replacement characters', async () => {
    await put('empty.txt', '');
    const empty = await h.call('ReadFile', { path: 'empty.txt' });
    expect([empty.output, empty.message]).toEqual([
      '',
      'No lines read from file. Total lines in file: 0. End of file reached.',
    ]);
    await put('latin1.txt', Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a]));
    expect((await h.call('ReadFile', { path: 'latin1.txt' })).output).toBe('     1\tcaf\ufffd\n');
  });

  it('reads exactly 1,000 lines of a 1,000-line file without claiming a limit', async () => {
    await put('k.txt', numbered(1000));
    const result = await h.call('ReadFile', { path: 'k.txt' });
    expect(outputText(result).split('\n')).toHaveLength(1001);
    expect(result.message).toBe('1000 lines read from file starting from line 1. Total lines in file: 1000.');
  });

  it('stops at 1,000 lines of a 1,001-line file and says so, even when more lines are asked for', async () => {
    await put('k1.txt', numbered(1001));
    for (const n_lines of [1000, 5000]) {
      const result = await h.call('ReadFile', { path: 'k1.txt', n_lines });
      expect(outputText(result).endsWith('  1000\tline 1000\n')).toBe(true);
      expect(result.message).toBe(
        '1000 lines read from file starting from line 1. Total lines in file: 1001. Max 1000 lines reached.',
      );
    }
  });

  it('honours line_offset and n_lines, and reports the end of the file', async () => {
    await put('o.txt', numbered(20));
    const middle = await h.call('ReadFile', { path: 'o.txt', line_offset: 5, n_lines: 3 });
    expect(middle.output).toBe('     5\tline 5\n     6\tline 6\n     7\tline 7\n');
    expect(middle.message).toBe('3 lines read from file starting from line 5. Total lines in file: 20.');
    const end = await h.call('ReadFile', { path: 'o.txt', line_offset: 19, n_lines: 5 });
    expect(end.message).toBe(
      '2 lines read from file starting from line 19. Total lines in file: 20. End of file reached.',
    );
    const past = await h.call('ReadFile', { path: 'o.txt', line_offset: 50 });
    expect(past.output).toBe('');
    expect(past.message).toBe('No lines read from file. Total lines in file: 20. End of file reached.');
  });

  it('keeps a 2,000-character line and cuts a 2,001-character one to 2,000 ending in "..."', async () => {
    await put('long.txt', `${'a'.repeat(2000)}\n${'b'.repeat(2001)}\n${'€'.repeat(30_000)}\n`);
    const result = await h.call('ReadFile', { path: 'long.txt' });
    const lines = outputText(result).split('\n');
    expect(lines[0]).toBe(`     1\t${'a'.repeat(2000)}`);
    expect(lines[1]).toBe(`     2\t${'b'.repeat(1997)}...`);
    expect(lines[2]).toBe(`     3\t${'€'.repeat(1997)}...`);
    expect(result.message).toBe(
      '3 lines read from file starting from line 1. Total lines in file: 3. End of file reached. Lines [2, 3] were truncated.',
    );
  });

  it('stops after the line that reaches 102,400 bytes', async () => {
    // 100 lines of 1,023 chars + newline = 1,024 bytes each: line 100 reaches 102,400 exactly.
    const line = `${'x'.repeat(1023)}\n`;
    await put('bytes.txt', line.repeat(150));
    const result = await h.call('ReadFile', { path: 'bytes.txt' });
    expect(result.message).toBe(
      '100 lines read from file starting from line 1. Total lines in file: 150. Max 102400 bytes reached.',
    );
    // One byte short of the budget at line 100: line 101 is read too and crosses it.
    await put('bytes2.txt', `${'x'.repeat(1022)}\n${line.repeat(150)}`);
    const crossing = await h.call('ReadFile', { path: 'bytes2.txt' });
    expect(crossing.message).toBe(
      '101 lines read from file starting from line 1. Total lines in file: 151. Max 102400 bytes reached.',
    );
  });

  it('does not claim a byte limit when the budget is reached on the last line', async () => {
    await put('exact.txt', `${'x'.repeat(1023)}\n`.repeat(100));
    const result = await h.call('ReadFile', { path: 'exact.txt' });
    expect(result.message).toBe(
      '100 lines read from file starting from line 1. Total lines in file: 100. End of file reached.',
    );
  });

  it('reads the first lines of a file far bigger than the budgets', async () => {
    const path = await put('huge.log', numbered(100));
    await truncate(path, 64 * 1024 * 1024); // sparse: 64 MB, the rest is NUL bytes on one line
    const result = await h.call('ReadFile', { path: 'huge.log', n_lines: 3 });
    expect(result.output).toBe('     1\tline 1\n     2\tline 2\n     3\tline 3\n');
    expect(result.message).toBe('3 lines read from file starting from line 1. Total lines in file: 101.');
    const tail = await h.call('ReadFile', { path: 'huge.log', line_offset: -2 });
    expect(tail.message).toBe(
      '2 lines read from file starting from line 100. Total lines in file: 101. End of file reached. Lines [101] were truncated.',
    );
  });
});

describe('ReadFile: tail mode', () => {
  it('returns the last lines for a negative line_offset', async () => {
    await put('t.txt', numbered(50));
    const result = await h.call('ReadFile', { path: 't.txt', line_offset: -3 });
    expect(result.output).toBe('    48\tline 48\n    49\tline 49\n    50\tline 50\n');
    expect(result.message).toBe(
      '3 lines read from file starting from line 48. Total lines in file: 50. End of file reached.',
    );
  });

  it('applies n_lines from the start of the tail window', async () => {
    await put('t.txt', numbered(50));
    const result = await h.call('ReadFile', { path: 't.txt', line_offset: -10, n_lines: 2 });
    expect(result.output).toBe('    41\tline 41\n    42\tline 42\n');
    expect(result.message).toBe('2 lines read from file starting from line 41. Total lines in file: 50.');
  });

  it('accepts -1,000 and rejects -1,001 and 0', async () => {
    await put('t.txt', numbered(1500));
    const ok = await h.call('ReadFile', { path: 't.txt', line_offset: -1000 });
    expect(ok.message).toBe('1000 lines read from file starting from line 501. Total lines in file: 1500.');
    const tooFar = await h.call('ReadFile', { path: 't.txt', line_offset: -1001 });
    expect(tooFar.is_error).toBe(true);
    expect(tooFar.message).toMatch(/validating JSON arguments.*line_offset/s);
    const zero = await h.call('ReadFile', { path: 't.txt', line_offset: 0 });
    expect(zero.is_error).toBe(true);
    expect(zero.message).toMatch(/line_offset cannot be 0/);
  });

  it('covers the whole file when the tail is longer than the file', async () => {
    await put('short.txt', numbered(3));
    const result = await h.call('ReadFile', { path: 'short.txt', line_offset: -100 });
    expect(result.output).toBe('     1\tline 1\n     2\tline 2\n     3\tline 3\n');
  });

  it('keeps the newest lines that fit in 102,400 bytes', async () => {
    await put('big-tail.txt', `${'y'.repeat(1999)}\n`.repeat(200));
    const result = await h.call('ReadFile', { path: 'big-tail.txt', line_offset: -200 });
    // 2,000 bytes per line: 51 lines fit in 102,400 bytes.
    expect(result.message).toBe(
      '51 lines read from file starting from line 150. Total lines in file: 200. Max 102400 bytes reached.',
    );
    expect(outputText(result).startsWith('   150\t')).toBe(true);
  });
});

describe('ReadFile: refusals', () => {
  it('refuses an empty path', async () => {
    const result = await h.call('ReadFile', { path: '' });
    expect(result.message).toBe('File path cannot be empty.');
    expect(briefOf(result)).toBe('Empty file path');
  });

  // The policy asks (naming the file as secret) even in yolo, and refuses where nobody can answer.
  it.each(['.env', '.env.local', 'id_rsa', 'id_ed25519', 'id_ecdsa', '.aws/credentials', '.gcp/credentials'])(
    'asks before reading the sensitive file %s, even in yolo, and refuses it in afk',
    async (name) => {
      await mkdir(join(h.workDir, '.aws'), { recursive: true });
      await mkdir(join(h.workDir, '.gcp'), { recursive: true });
      await put(name, 'SECRET=1\n');
      h.approval.setYolo(true);
      const read = await h.call('ReadFile', { path: name });
      expect(h.requests).toHaveLength(1);
      expect(h.requests[0]!.description).toContain(`read SECRET file ${join(h.workDir, name)}`);
      expect(read.output).toBe('     1\tSECRET=1\n');
      h.approval.setAfk(true);
      const refused = await h.call('ReadFile', { path: name });
      expect(h.requests).toHaveLength(1);
      expect(refused.is_error).toBe(true);
      expect(refused.message).toContain(`\`${name}\` is a secret file`);
      expect(briefOf(refused)).toBe('Refused by policy');
      expect(JSON.stringify(refused)).not.toContain('SECRET=1');
    },
  );

  it.each(['.env.example', '.env.sample', '.env.template'])('reads the harmless %s', async (name) => {
    await put(name, 'KEY=placeholder\n');
    expect((await h.call('ReadFile', { path: name })).output).toBe('     1\tKEY=placeholder\n');
  });

  it('reports a missing file and a directory', async () => {
    const missing = await h.call('ReadFile', { path: 'nope.txt' });
    expect([missing.message, briefOf(missing)]).toEqual(['`nope.txt` does not exist.', 'File not found']);
    await mkdir(join(h.workDir, 'sub'));
    const dir = await h.call('ReadFile', { path: 'sub' });
    expect([dir.message, briefOf(dir)]).toEqual(['`sub` is not a file.', 'Invalid path']);
  });

  it('refuses images and videos by suffix or by magic bytes', async () => {
    await put('pic.png', 'not really a png');
    const bySuffix = await h.call('ReadFile', { path: 'pic.png' });
    expect(bySuffix.message).toBe(
      '`pic.png` is an image file. Use other appropriate tools to read image or video files.',
    );
    expect(briefOf(bySuffix)).toBe('Unsupported file type');
    await put('disguised.txt', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]));
    expect((await h.call('ReadFile', { path: 'disguised.txt' })).message).toMatch(/is an image file/);
    await put('clip.dat', Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from('ftypmp42')]));
    expect((await h.call('ReadFile', { path: 'clip.dat' })).message).toMatch(/`clip.dat` is a video file/);
  });

  it('refuses binary files: a NUL byte in the first 512 bytes, or a binary suffix', async () => {
    await put('blob.txt', Buffer.from('abc\u0000def'));
    const nul = await h.call('ReadFile', { path: 'blob.txt' });
    expect(nul.message).toMatch(/^`blob.txt` seems not readable/);
    expect(briefOf(nul)).toBe('File not readable');
    await put('late-nul.txt', Buffer.concat([Buffer.from('a'.repeat(512)), Buffer.from([0])]));
    expect((await h.call('ReadFile', { path: 'late-nul.txt' })).is_error).toBe(false);
    await put('archive.zip', 'PK plain looking');
    expect(briefOf(await h.call('ReadFile', { path: 'archive.zip' }))).toBe('File not readable');
  });

  it('needs an absolute path outside the workspace, and reads it when given one', async () => {
    await writeFile(join(h.outsideDir, 'o.txt'), 'outside\n');
    const relative = await h.call('ReadFile', { path: '../outside/o.txt' });
    expect(relative.message).toBe(
      '`../outside/o.txt` is not an absolute path. You must provide an absolute path to read a file outside the working directory.',
    );
    expect(briefOf(relative)).toBe('Invalid path');
    const absolute = await h.call('ReadFile', { path: join(h.outsideDir, 'o.txt') });
    expect(absolute.output).toBe('     1\toutside\n');
  });

  it('treats additional directories as part of the workspace', async () => {
    await writeFile(join(h.outsideDir, 'o.txt'), 'extra\n');
    h.additionalDirs.push(h.outsideDir);
    const result = await h.call('ReadFile', { path: '../outside/o.txt' });
    expect(result.output).toBe('     1\textra\n');
  });
});
