import { describe, expect, it } from 'vitest';
import { buildDiffBlocks } from './diff-blocks.js';

const lines = (count: number, from = 1): string =>
  `${Array.from({ length: count }, (_, i) => `l${from + i}`).join('\n')}\n`;

describe('buildDiffBlocks', () => {
  it('makes one block per hunk with 3 lines of context and 1-based starts', () => {
    const before = lines(30);
    const after = before.replace('l5\n', 'five\n').replace('l25\n', 'twenty-five\n');
    expect(buildDiffBlocks('/w/f.txt', before, after)).toEqual([
      {
        type: 'diff',
        path: '/w/f.txt',
        old_text: 'l2\nl3\nl4\nl5\nl6\nl7\nl8',
        new_text: 'l2\nl3\nl4\nfive\nl6\nl7\nl8',
        old_start: 2,
        new_start: 2,
        is_summary: false,
      },
      {
        type: 'diff',
        path: '/w/f.txt',
        old_text: 'l22\nl23\nl24\nl25\nl26\nl27\nl28',
        new_text: 'l22\nl23\nl24\ntwenty-five\nl26\nl27\nl28',
        old_start: 22,
        new_start: 22,
        is_summary: false,
      },
    ]);
  });

  it('merges changes whose context overlaps into one hunk', () => {
    const before = lines(20);
    const after = before.replace('l5\n', 'x\n').replace('l10\n', 'y\n');
    const blocks = buildDiffBlocks('f', before, after);
    expect(blocks).toHaveLength(1);
    expect(blocks[0]).toMatchObject({ old_start: 2, new_start: 2 });
  });

  it('shows a new file as one block starting at line 1', () => {
    expect(buildDiffBlocks('n', '', 'a\nb\n')).toEqual([
      {
        type: 'diff',
        path: 'n',
        old_text: '',
        new_text: 'a\nb',
        old_start: 1,
        new_start: 1,
        is_summary: false,
      },
    ]);
  });

  it('places an insertion after the line it follows', () => {
    const [block] = buildDiffBlocks('f', lines(10), lines(10).replace('l10\n', 'l10\nl11\n'));
    expect(block).toMatchObject({ old_text: 'l8\nl9\nl10', new_text: 'l8\nl9\nl10\nl11', old_start: 8 });
  });

  it('diffs 10,000 lines and summarises 10,001', () => {
    const big = lines(10_000);
    const diffed = buildDiffBlocks('f', big, big.replace('l9999\n', 'changed\n'));
    expect(diffed[0]).toMatchObject({ is_summary: false, old_start: 9996 });
    const summary = buildDiffBlocks('f', big, `${big}extra\n`);
    expect(summary).toEqual([
      {
        type: 'diff',
        path: 'f',
        old_text: '(10000 lines before the change)',
        new_text: '(10001 lines after the change)',
        old_start: 1,
        new_start: 1,
        is_summary: true,
      },
    ]);
  });

  it('shows identical texts as one block', () => {
    expect(buildDiffBlocks('f', 'same\n', 'same\n')).toHaveLength(1);
  });
});
