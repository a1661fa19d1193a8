import { describe, expect, it } from 'vitest';
import { sanitizeForTerminal } from './sanitize-for-terminal.js';

describe('sanitizeForTerminal', () => {
  it.each([
    ['plain text\nsecond line', 'plain text\nsecond line'],
    ['\x1b[2J\x1b]0;pwned\x07', '␛[2J␛]0;pwned␇'],
    ['carriage\rreturn', 'carriage␍return'],
    ['a\tb', 'a    b'],
    ['csi\x9b31m', 'csi⟨U+009B⟩31m'],
    ['del\x7f', 'del␡'],
    ['bidi \u202eevil', 'bidi ⟨U+202E⟩evil'],
    ['unicode ✓ 你好', 'unicode ✓ 你好'],
  ])('%j → %j', (input, expected) => {
    expect(sanitizeForTerminal(input)).toBe(expected);
  });
});
