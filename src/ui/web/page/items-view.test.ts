import { describe, expect, it } from 'vitest';
import { lastLines } from './items-view.js';

describe('lastLines (a running command’s output on the page)', () => {
  it('keeps the last lines, drops terminal escapes, shows a \\r-redrawn line in its latest state', () => {
    const text = 'one\ntwo\n\x1b[31mred\x1b[0m\n\x1b]0;title\x07progress 10%\rprogress 90%\n';
    expect(lastLines(text, 3)).toBe('two\nred\nprogress 90%');
    expect(lastLines(text, 10)).toBe('one\ntwo\nred\nprogress 90%');
  });
});
