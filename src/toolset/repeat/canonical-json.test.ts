import { describe, expect, it } from 'vitest';
import { argumentsHash, canonicalJson, normaliseWhitespace } from './canonical-json.js';

describe('canonicalJson', () => {
  it.each([
    [{ b: 2, a: 1 }, '{"a":1,"b":2}'],
    [{ z: { y: [{ d: 1, c: 2 }], x: null } }, '{"z":{"x":null,"y":[{"c":2,"d":1}]}}'],
    [{ path: 'src/数据.ts', emoji: '🙂' }, '{"emoji":"🙂","path":"src/数据.ts"}'],
    [{ command: 'echo "hi"\n' }, '{"command":"echo \\"hi\\"\\n"}'],
    [[3, 'x', true], '[3,"x",true]'],
    ['plain', '"plain"'],
  ])('%j → %s (Python json.dumps sort_keys, compact, ensure_ascii=False)', (value, expected) => {
    expect(canonicalJson(value)).toBe(expected);
  });

  it('sorts keys by code point like Python, not by UTF-16 unit', () => {
    // U+FF61 is one UTF-16 unit above the surrogate pair of U+1F600 in JS order but below it in code points.
    expect(canonicalJson({ '😀': 1, '｡': 2 })).toBe('{"｡":2,"😀":1}');
  });

  it('hashes canonical arguments to the first 8 hex digits of SHA-256', () => {
    expect(argumentsHash('{"a":1}')).toBe('015abd7f');
  });
});

describe('normaliseWhitespace', () => {
  it('collapses and trims every string, deep', () => {
    expect(normaliseWhitespace({ command: '  ls   -la\n\t src ', list: [' a  b '], n: 1 })).toEqual({
      command: 'ls -la src',
      list: ['a b'],
      n: 1,
    });
  });
});
