import { describe, expect, it } from 'vitest';
import { compileGlob } from './glob-pattern.js';
import { matchShape, type ShellMatch, shellRuleShape } from './shell-rule-match.js';
import type { ShellWord } from './shell-words.js';

const word = (value: string): ShellWord => ({ value, text: value, splits: false });
const unknown: ShellWord = { value: null, text: '"$x"', splits: false };

/** Operand runs: each run of operands that ends at the last one, or is followed by more, is tried. */
const ROWS: readonly [glob: string, words: readonly ShellWord[], expected: ShellMatch][] = [
  ['npm publish*', ['npm', 'test', '--', 'src-1'].map(word), 'no'],
  ['npm publish*', ['npm', 'test', 'publish'].map(word), 'matches'],
  ['npm publish*', ['npm', 'publish', '--tag', 'x'].map(word), 'matches'],
  ['npm publish*', ['npm', 'test', 'publishing', 'x'].map(word), 'matches'],
  // An unknown word starts no run: after a literal word that is not the rule's, it cannot match.
  ['npm publish*', [word('npm'), word('test'), unknown], 'no'],
  ['npm publish*', [word('npm'), unknown], 'might'],
  ['npm publish*', [word('npm'), unknown, word('x')], 'might'],
  ['rm -rf /', ['rm', '-rf', '/tmp/x', '/'].map(word), 'matches'],
  ['rm -rf /', ['rm', '-fr', '/', 'x'].map(word), 'matches'],
  ['rm -rf /', ['rm', '-rf', '/tmp'].map(word), 'no'],
  ['git push origin main', ['git', 'push', 'origin', 'main'].map(word), 'matches'],
  ['git push origin main', ['git', 'push', 'origin', 'dev'].map(word), 'no'],
  ['git p?sh*', ['git', 'x', 'pish'].map(word), 'matches'],
  ['git * main', ['git', 'push', 'origin', 'main'].map(word), 'matches'],
  ['rm -rf', ['/bin/rm', '-r', '-f'].map(word), 'matches'],
  ['rm -rf', ['rmx', '-rf'].map(word), 'no'],
];

describe('a Shell rule read as a command', () => {
  it.each(ROWS.map(([glob, words, expected]) => [glob, words.map((w) => w.text).join(' '), words, expected]))(
    '%s against `%s`',
    (glob, _shown, words, expected) => {
      const shape = shellRuleShape(glob as string, (g) => compileGlob(g, false));
      expect(shape).not.toBeNull();
      if (!shape) return;
      expect(matchShape(shape, words as ShellWord[])).toBe(expected);
    },
  );
});
