import { describe, expect, it } from 'vitest';
import { compileGlob, compileGlobRule } from './glob-regex.js';
import { IgnoreFile, IgnoreStack } from './ignore-rules.js';

const matches = (glob: string, path: string): boolean => compileGlob(glob)(path);

describe('compileGlob (picomatch)', () => {
  it.each([
    ['*.ts', 'a.ts', true],
    ['*.ts', 'src/a.ts', false],
    ['src/**/*.ts', 'src/a.ts', true],
    ['src/**/*.ts', 'src/x/y/a.ts', true],
    ['src/**', 'src/x/y', true],
    ['**/test', 'a/b/test', true],
    ['**/test', 'test', true],
    ['a?c', 'abc', true],
    ['a?c', 'a/c', false],
    ['[ab].txt', 'b.txt', true],
    ['[!ab].txt', 'b.txt', false],
    ['*.{ts,tsx}', 'x.tsx', true],
    ['*.{ts,tsx}', 'x.js', false],
    ['{a,b/{c,d}}.md', 'b/d.md', true],
    ['file(1).txt', 'file(1).txt', true],
    ['\\*.txt', '*.txt', true],
    ['\\*.txt', 'a.txt', false],
    ['*', '.hidden', true],
    ['+(a|b).txt', '+(a|b).txt', true],
    ['+(a|b).txt', 'a.txt', false],
    // Where picomatch and the old compiler disagreed, picomatch's reading is kept: it is git's and
    // ripgrep's (a `**` that is not a whole segment is a `*`; `dir/**` also names `dir`).
    ['a**b', 'axb', true],
    ['a**b', 'a/x/b', false],
    ['src/**', 'src', true],
    ['[[:digit:]].md', '7.md', true],
    // picomatch also lets a set match its own text (a file named `[ab].txt`); the old one did not.
    ['[ab].txt', '[ab].txt', true],
  ])('%s vs %s → %s', (glob, path, expected) => {
    expect(matches(glob, path)).toBe(expected);
  });
});

describe('compileGlobRule and ignore files', () => {
  it('skips blanks and comments, reads negation, directory-only and anchoring', () => {
    expect(compileGlobRule('')).toBeNull();
    expect(compileGlobRule('# note')).toBeNull();
    expect(compileGlobRule('!keep.log')).toMatchObject({ negated: true, dirOnly: false });
    expect(compileGlobRule('build/')).toMatchObject({ negated: false, dirOnly: true });
    expect(compileGlobRule('*.log')!.matches('deep/down/x.log')).toBe(true);
    expect(compileGlobRule('/top.txt')!.matches('sub/top.txt')).toBe(false);
    expect(compileGlobRule('docs/*.md')!.matches('docs/a.md')).toBe(true);
    expect(compileGlobRule('docs/*.md')!.matches('x/docs/a.md')).toBe(false);
  });

  it('lets the last matching rule decide, and deeper files override shallower ones', () => {
    const root = IgnoreFile.parse('/r', '*.log\n!keep.log\nbuild/\n');
    expect(root.decide('/r/a.log', false)).toBe('ignore');
    expect(root.decide('/r/x/keep.log', false)).toBe('keep');
    expect(root.decide('/r/build', true)).toBe('ignore');
    expect(root.decide('/r/build', false)).toBeNull();
    expect(root.decide('/elsewhere/a.log', false)).toBeNull();
    const stack = new IgnoreStack();
    stack.push(root);
    stack.push(IgnoreFile.parse('/r/sub', '!*.log\n'));
    expect(stack.isIgnored('/r/sub/a.log', false)).toBe(false);
    expect(stack.isIgnored('/r/other/a.log', false)).toBe(true);
    stack.pop(1);
    expect(stack.isIgnored('/r/sub/a.log', false)).toBe(true);
  });

  it('does not ignore what lies inside an ignored folder the search was pointed into (as ripgrep)', () => {
    const root = IgnoreFile.parse('/r', 'build/\n*.log\n');
    expect(root.decide('/r/build', true)).toBe('ignore');
    expect(root.decide('/r/build/sub', true)).toBeNull();
    expect(root.decide('/r/build/sub/x.txt', false)).toBeNull();
    // Where the ignore package and ripgrep part: rg would still skip this log by its own rule.
    expect(root.decide('/r/build/sub/a.log', false)).toBeNull();
    expect(root.decide('/r/src/a.log', false)).toBe('ignore');
  });
});
