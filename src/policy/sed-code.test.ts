import { describe, expect, it } from 'vitest';
import { sedRunsCommands } from './sed-code.js';

describe('sedRunsCommands', () => {
  it.each([
    's/a/b/g',
    '1d',
    '/^#/d',
    '/start/,/end/p',
    's|a|b|2g',
    's/\\(x\\)/\\1/',
    'y/abc/xyz/',
    '1,3 {p;q}',
    '$a\\\nhello there',
    '10q',
    '/x/I{s/e/E/;p}',
    's/e/f/w out.txt',
    '# a comment with e',
    'a exe',
  ])('%j runs nothing', (script) => {
    expect(sedRunsCommands(script)).toBe(false);
  });

  it.each(['e rm -rf x', '1e date', 's/x/rm -rf v/e', 's/x/y/ge', '/a/{e ls\n}', 'p;e', '1,3!e ls', 's/a/b'])(
    '%j may run a command (or cannot be read)',
    (script) => {
      expect(sedRunsCommands(script)).toBe(true);
    },
  );
});
