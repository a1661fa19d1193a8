import { describe, expect, it } from 'vitest';
import { compileMatcher } from './matcher.js';

describe('compileMatcher', () => {
  it.each([
    ['', 'anything', true],
    ['', '', true],
    ['Shell', 'Shell', true],
    ['Shell', 'MyShellTool', true],
    ['^Shell$', 'MyShellTool', false],
    ['WriteFile|StrReplaceFile', 'StrReplaceFile', true],
    ['WriteFile|StrReplaceFile', 'ReadFile', false],
    ['mcp__.*__write', 'mcp__github__write_issue', true],
    ['(?i)shell', 'SHELL', true],
    ['shell', 'SHELL', false],
    ['(?P<word>ab)(?P=word)', 'xxabab', true],
    ['(?P<word>ab)(?P=word)', 'abba', false],
  ])('%j tested on %j → %s', (matcher, target, expected) => {
    const compiled = compileMatcher(matcher);
    if (!compiled.ok) throw new Error(compiled.error);
    expect(compiled.test(target)).toBe(expected);
  });

  it('gives the same answer on repeated tests (no regex state carried over)', () => {
    const compiled = compileMatcher('Shell');
    if (!compiled.ok) throw new Error(compiled.error);
    expect([compiled.test('Shell'), compiled.test('Shell'), compiled.test('Shell')]).toEqual([
      true,
      true,
      true,
    ]);
  });

  it('reports an invalid regex instead of throwing', () => {
    const compiled = compileMatcher('Shell(');
    expect(compiled.ok).toBe(false);
    if (!compiled.ok) expect(compiled.error).toMatch(/Invalid regular expression/);
  });
});
