/**
 * Text from a model, a tool, a file or a command, made safe to print on a terminal: every control
 * character is shown as a visible symbol instead of being interpreted, so it can neither move the
 * cursor, erase a line, change colours or the window title, nor reorder what a person reads.
 *
 * - C0 controls except newline and tab, and DEL, become their Unicode control pictures (`\r` → `␍`,
 *   ESC → `␛`, so `\x1b[2K` shows as `␛[2K`); a `\r\n` line end stays a plain newline.
 * - C1 controls (U+0080–U+009F, e.g. the one-byte CSI U+009B) become `⟨U+009B⟩`.
 * - Bidirectional overrides and isolates (U+202A–U+202E, U+2066–U+2069) and the direction marks
 *   (U+200E, U+200F, U+061C) become `⟨U+202E⟩`, so text reads in the order it is stored.
 * - A run of two or more of the same blank-looking character that no text needs in a row (the Braille
 *   blank U+2800, the Hangul fillers, zero-width spaces and joiners, the word joiner, the BOM)
 *   becomes `⟨U+2800 ×200⟩`: such a run can push what follows out of sight. One alone stays (a
 *   zero-width joiner inside an emoji sequence).
 *
 * Each character is judged alone, so text streamed in pieces can be sanitised piece by piece. Our own
 * styling (colours) is applied after this, never to be confused with escapes in the text.
 */
export function sanitizeForTerminal(text: string): TerminalSafe {
  if (!UNSAFE.test(text)) return text as TerminalSafe;
  return text.replace(/\r\n/g, '\n').replace(UNSAFE_ALL, visible) as TerminalSafe;
}

/**
 * `sanitizeForTerminal` for text that must stay on one line: a file name in a listing, where a
 * newline in the name would start a line of its own that reads as another entry. Newline and tab
 * show as their control pictures too (`\n` → `␊`, `\t` → `␉`).
 */
export function sanitizeOneLine(text: string): TerminalSafe {
  const safe = sanitizeForTerminal(text);
  return (
    /[\n\t]/.test(safe) ? safe.replace(/\n/g, '\u240a').replace(/\t/g, '\u2409') : safe
  ) as TerminalSafe;
}

declare const terminalSafe: unique symbol;

/**
 * Text that may reach a terminal: made only by `sanitizeForTerminal`, or by `terminalText` from
 * the program's own words and such text. Writers to a terminal take only this type, so text from a
 * model, a tool or a file that skipped the sanitiser is a compile error, not a forgotten call.
 */
export type TerminalSafe = string & { readonly [terminalSafe]: true };

/**
 * The program's own text (the template's literal parts, written in our source) with safe pieces in
 * it: `terminalText\`Allow ${clean(action)}?\``. A plain string as a piece does not compile.
 * Write non-ASCII characters in its text as `\u` escapes (`terminalText\`\u203A\``): the bundle
 * is read as latin1, and esbuild leaves a tagged template's text as written (scripts/bundle.mjs
 * checks).
 */
export function terminalText(
  literals: TemplateStringsArray,
  ...pieces: readonly (TerminalSafe | number)[]
): TerminalSafe {
  let text = literals[0] ?? '';
  pieces.forEach((piece, i) => {
    text += String(piece) + (literals[i + 1] ?? '');
  });
  return text as TerminalSafe;
}

/**
 * A string literal written in our source: its type is the literal itself (`'done'`, `'a' | 'b'`),
 * never the wide `string` a value read from elsewhere has. Text of such a type is the program's own.
 */
export type SourceLiteral<T extends string> = string extends T ? never : T;

/**
 * The program's own constant text as safe text: `trustedLiteral('(context compacted)')`. Only a
 * literal compiles (a `string` from a model, a tool or a file does not), so this is the one audited
 * door next to the sanitiser for text nobody else wrote.
 */
export function trustedLiteral<T extends string>(text: T & SourceLiteral<T>): TerminalSafe {
  return text as string as TerminalSafe;
}

/** Safe pieces joined by a safe separator stay safe. */
export function joinTerminalText(pieces: readonly TerminalSafe[], separator: TerminalSafe): TerminalSafe {
  return pieces.join(separator) as TerminalSafe;
}

const CONTROL_CLASS =
  '[\\u0000-\\u0008\\u000b-\\u001f\\u007f-\\u009f\\u061c\\u200e\\u200f\\u202a-\\u202e\\u2066-\\u2069]';
/** Blank-looking characters shown as a counted marker when repeated (one alone is left as it is). */
const BLANK_CLASS = '[\\u115f\\u1160\\u200b-\\u200d\\u2060\\u2800\\u3164\\ufeff\\uffa0]';
// One pass over clean text (the test), whatever it holds; the replacement runs only on text that needs it.
const UNSAFE = new RegExp(`${CONTROL_CLASS}|(${BLANK_CLASS})\\1`);
const UNSAFE_ALL = new RegExp(`${CONTROL_CLASS}|(${BLANK_CLASS})\\1+`, 'g');

function visible(match: string): string {
  const code = match.charCodeAt(0);
  const name = `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
  if (match.length > 1) return `⟨${name} ×${match.length}⟩`;
  if (code < 0x20) return String.fromCharCode(0x2400 + code);
  if (code === 0x7f) return '\u2421';
  return `⟨${name}⟩`;
}
