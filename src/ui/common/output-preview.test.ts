import { describe, expect, it } from 'vitest';
import { hiddenLinesText, outputLines, previewOutput } from './output-preview.js';

describe('previewOutput (a command output folded inline)', () => {
  const rows = (n: number) => Array.from({ length: n }, (_, i) => `r${i + 1}`).join('\n');

  it('keeps an output of up to 7 lines whole (folding one line away saves nothing)', () => {
    expect(previewOutput(`${rows(7)}\n`)).toEqual({ head: rows(7).split('\n'), hidden: 0, tail: [] });
  });

  it('folds a longer one to its first 3 and last 3 lines', () => {
    expect(previewOutput(rows(8))).toEqual({ head: ['r1', 'r2', 'r3'], hidden: 2, tail: ['r6', 'r7', 'r8'] });
  });

  it('reads lines as a terminal leaves them: CRLF, a \\r-redrawn progress line, trailing blank lines', () => {
    expect(outputLines('a\r\nbar 10%\rbar 99%\n\n  \n')).toEqual(['a', 'bar 99%']);
    expect(outputLines('')).toEqual([]);
  });

  it('says line and lines', () => {
    expect(hiddenLinesText(1)).toBe('… 1 line hidden');
    expect(hiddenLinesText(15)).toBe('… 15 lines hidden');
  });
});
