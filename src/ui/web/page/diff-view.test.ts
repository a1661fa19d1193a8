import { describe, expect, it } from 'vitest';
import { diffRows } from './diff-view.js';

const block = (old_text: string, new_text: string) => ({
  type: 'diff' as const,
  path: '/w/check.sh',
  old_text,
  new_text,
  old_start: 1,
  new_start: 1,
  is_summary: false,
});

describe('diffRows (a file edit on the page)', () => {
  it('shows bidi controls and invisible runs as markers, so the code reads in its stored order', () => {
    // Trojan Source: a comment that seems to end before `rm`.
    const rows = diffRows(block('', '# check \u202e\u2066\nrm -rf ~ \u2069\u2066# done\nx\u200b\u200by\n'));
    expect(rows.map((row) => row.text)).toEqual([
      '# check ⟨U+202E⟩⟨U+2066⟩',
      'rm -rf ~ ⟨U+2069⟩⟨U+2066⟩# done',
      'x⟨U+200B ×2⟩y',
    ]);
  });

  it('keeps every line its own row with its number, blank ones too', () => {
    const rows = diffRows(block('a\n', 'a\n\n\n\nb\x1b[2J\n'));
    expect(rows.map((row) => [row.sign, row.newNo, row.text])).toEqual([
      [' ', 1, 'a'],
      ['+', 2, ''],
      ['+', 3, ''],
      ['+', 4, ''],
      ['+', 5, 'b␛[2J'],
    ]);
  });
});
