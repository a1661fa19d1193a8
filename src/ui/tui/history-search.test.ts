import { visibleWidth } from '@mariozechner/pi-tui';
import { describe, expect, it } from 'vitest';
import { HistorySearch } from './history-search.js';
import { tuiStyle } from './tui-style.js';

const style = tuiStyle(false);
const history = ['git status', 'run the tests', 'fix the GIT hook\nthen commit', 'git log'];
const type = (search: HistorySearch, text: string) => {
  for (const ch of text) search.handleKey(ch);
};

describe('HistorySearch (Ctrl-R)', () => {
  it('narrows as the query grows, Ctrl-R goes to older matches, Enter takes the match', () => {
    const search = new HistorySearch(history, style);
    type(search, 'git');
    expect(search.match).toBe('git status');
    search.handleKey('\x12');
    expect(search.match).toBe('fix the GIT hook\nthen commit');
    search.handleKey('\x12');
    expect(search.match).toBe('git log');
    // No older match: the last one stays.
    search.handleKey('\x12');
    expect(search.match).toBe('git log');
    expect(search.handleKey('\r')).toEqual({ done: true, taken: 'git log' });
  });

  it('Backspace widens the search; no match says so; Esc takes nothing', () => {
    const search = new HistorySearch(history, style);
    type(search, 'testz');
    expect(search.match).toBeNull();
    expect(search.render(80)[0]).toContain("(reverse-i-search)'testz': no match");
    search.handleKey('\x7f');
    expect(search.match).toBe('run the tests');
    expect(search.handleKey('\x1b')).toEqual({ done: true, taken: null });
  });

  it('shows a multi-line prompt on one line, control characters inert, within the width', () => {
    const search = new HistorySearch(['evil \x1b[2J\x1b]0;pwned\x07 text\nline two'], style);
    type(search, 'text');
    const [line] = search.render(200);
    expect(line).not.toContain('\x1b[2J');
    expect(line).not.toContain('\x1b]0;');
    expect(line).toContain('↵');
    expect(visibleWidth(search.render(30)[0] ?? '')).toBeLessThanOrEqual(30);
    // Taken into the editor without its control characters; the newline stays.
    expect(search.handleKey('\r')).toEqual({ done: true, taken: 'evil [2J]0;pwned text\nline two' });
    // Control keys never go into the query.
    search.handleKey('\x01');
    expect(search.render(200)[0]).toContain("'text'");
  });
});
