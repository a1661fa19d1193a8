import { visibleWidth } from '@mariozechner/pi-tui';
import { describe, expect, it } from 'vitest';
import { sanitizeForTerminal as safe } from '../../util/sanitize-terminal.js';
import { fitToWidth, renderDiff } from './diff-lines.js';
import { tuiStyle } from './tui-style.js';

const block = (old_text: string, new_text: string) => ({
  type: 'diff' as const,
  path: '/work/a.ts',
  old_text,
  new_text,
  old_start: 10,
  new_start: 10,
  is_summary: false,
});

describe('renderDiff', () => {
  it('shows removed and added lines with their line numbers, unchanged lines left out', () => {
    const lines = renderDiff(block('a\nb\nc\n', 'a\nB\nc\nd\n'), tuiStyle(false), 80, safe('  '));
    expect(lines).toEqual(['    11 - b', '    11 + B', '    13 + d']);
  });

  it('colours additions green and removals red, and keeps control characters inert', () => {
    const [removed, added] = renderDiff(block('x\n', 'y\x1b[2J\n'), tuiStyle(true), 80, safe(''));
    expect(removed).toContain('\x1b[31m- x\x1b[39m');
    expect(added).toContain('\x1b[32m+ y␛[2J\x1b[39m');
  });

  it('counts what it does not show', () => {
    const many = Array.from({ length: 30 }, (_, i) => `line ${i}`).join('\n');
    const lines = renderDiff(block('', `${many}\n`), tuiStyle(false), 80, safe(''));
    expect(lines).toHaveLength(13);
    expect(lines.at(-1)).toBe('     … 18 more changed lines');
  });
});

describe('fitToWidth', () => {
  it('says how much of a cut line is hidden', () => {
    const line = safe(`  12 + ${'x'.repeat(200)}`);
    const fitted = fitToWidth(line, 60);
    expect(visibleWidth(fitted)).toBeLessThanOrEqual(60);
    const plain = fitted.replaceAll('\x1b[0m', ''); // the reset truncateToWidth adds
    const hidden = Number(/…\+(\d+) cols$/.exec(plain)?.[1]);
    expect(visibleWidth(fitted) - `…+${hidden} cols`.length + hidden).toBe(visibleWidth(line));
  });

  it('leaves a line that fits', () => {
    expect(fitToWidth(safe('short'), 60)).toBe('short');
  });
});
