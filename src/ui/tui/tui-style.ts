import type { EditorTheme, MarkdownTheme, SelectListTheme } from '@mariozechner/pi-tui';
import type { SourceLiteral, TerminalSafe } from '../../util/sanitize-terminal.js';
import { highlightCode } from './highlight-code.js';
import { type ThemePalette, type TuiTheme, themePalette } from './theme.js';

/**
 * The TUI's colours as ANSI escapes; all of them plain text when colour is off (`NO_COLOR`, see
 * https://no-color.org). Code in answers is highlighted only with colour on.
 */
export interface TuiStyle {
  readonly color: boolean;
  readonly theme: TuiTheme;
  dim: Paint;
  bold: Paint;
  italic: Paint;
  accent: Paint;
  ok: Paint;
  warn: Paint;
  error: Paint;
  /** The frame of the prompt editor and of panels. */
  border: Paint;
  /** Inverted: the chosen line of a panel. */
  selected: Paint;
  markdown: MarkdownTheme;
  editor: EditorTheme;
}

/**
 * A style takes safe text, or a literal of our own source, and gives safe text: our escapes around
 * text that is safe keep it safe. A plain `string` (from a model, a tool, a file) does not compile:
 * it goes through the sanitiser first.
 */
export interface Paint {
  (text: TerminalSafe): TerminalSafe;
  <T extends string>(text: T & SourceLiteral<T>): TerminalSafe;
}

// pi-tui's themes (Markdown, editor, lists) take `(text: string) => string`; their input is text
// the component was given (sanitised where it entered the view) or the component's own.
const paint =
  (open: string, close: string) =>
  <T extends string>(text: T): T =>
    (text ? `\x1b[${open}m${text}\x1b[${close}m` : text) as T;
const same = <T extends string>(text: T): T => text;

export function tuiStyle(color: boolean, theme: TuiTheme = 'dark'): TuiStyle {
  const palette = themePalette(theme);
  const dim = color ? paint('2', '22') : same;
  const bold = color ? paint('1', '22') : same;
  const italic = color ? paint('3', '23') : same;
  const accent = color ? paint(palette.accent, '39') : same;
  const ok = color ? paint(palette.ok, '39') : same;
  const warn = color ? paint(palette.warn, '39') : same;
  const error = color ? paint(palette.error, '39') : same;
  const border = color ? paint(palette.border, '39') : same;
  const selected = color ? paint('7', '27') : same;
  const selectList: SelectListTheme = {
    selectedPrefix: accent,
    selectedText: accent,
    description: dim,
    scrollInfo: dim,
    noMatch: dim,
  };
  const markdown: MarkdownTheme = {
    heading: (text) => bold(accent(text)),
    link: color ? paint('4', '24') : same,
    linkUrl: dim,
    code: color ? paint(palette.inlineCode, '39') : same,
    codeBlock: same,
    codeBlockBorder: border,
    quote: italic,
    quoteBorder: border,
    hr: border,
    listBullet: accent,
    bold,
    italic,
    strikethrough: color ? paint('9', '29') : same,
    underline: color ? paint('4', '24') : same,
    ...(color
      ? { highlightCode: (code: string, lang?: string) => swapCodeColors(highlightCode(code, lang), palette) }
      : {}),
  };
  return {
    color,
    theme,
    dim: asPaint(dim),
    bold: asPaint(bold),
    italic: asPaint(italic),
    accent: asPaint(accent),
    ok: asPaint(ok),
    warn: asPaint(warn),
    error: asPaint(error),
    border: asPaint(border),
    selected: asPaint(selected),
    markdown,
    editor: { borderColor: border, selectList },
  };
}

/** A literal is the program's own text, so painting it gives safe text as painting safe text does. */
function asPaint(style: <T extends string>(text: T) => T): Paint {
  return style as unknown as Paint;
}

/** Highlighted code's colours in the theme's shades (the highlighter speaks the 16 basic colours). */
function swapCodeColors(lines: string[], palette: ThemePalette): string[] {
  if (Object.keys(palette.codeSwaps).length === 0) return lines;
  return lines.map((line) =>
    // biome-ignore lint/suspicious/noControlCharactersInRegex: an SGR colour code is what is swapped
    line.replace(/\x1b\[(\d+)m/g, (whole, code: string) =>
      palette.codeSwaps[code] ? `\x1b[${palette.codeSwaps[code]}m` : whole,
    ),
  );
}

/** Colour unless `NO_COLOR` is set to anything non-empty. */
export function wantsTuiColor(env: Readonly<Record<string, string | undefined>>): boolean {
  return !env.NO_COLOR;
}
