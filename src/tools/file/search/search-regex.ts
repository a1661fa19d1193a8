import { GrepFailure } from './search-types.js';

export interface RegexOptions {
  ignoreCase: boolean;
  multiline: boolean;
}

/**
 * Turns a ripgrep (Rust regex) pattern into a JavaScript RegExp for the built-in search. The two
 * dialects agree on everyday syntax; the differences models actually write are handled: leading
 * inline flags `(?i)` / `(?s)` / `(?m)`, Python-style named groups `(?P<name>…)`, and `\A` / `\z`.
 * `^` and `$` match at line boundaries as in ripgrep, and in multiline mode `.` matches newlines.
 */
export function compileSearchRegex(pattern: string, options: RegexOptions): RegExp {
  let source = pattern;
  const flags = new Set(['g', 'm']);
  if (options.ignoreCase) flags.add('i');
  if (options.multiline) flags.add('s');
  const inline = /^\(\?([imsU]+)\)/.exec(source);
  if (inline) {
    for (const flag of inline[1]!) if (flag === 'i' || flag === 's') flags.add(flag);
    source = source.slice(inline[0].length);
  }
  source = source
    .replace(/\(\?P</g, '(?<')
    .replace(/\\A/g, '^')
    .replace(/\\z/g, '$');
  const flagText = [...flags].join('');
  try {
    return new RegExp(source, `${flagText}u`);
  } catch {
    try {
      return new RegExp(source, flagText);
    } catch (error) {
      throw new GrepFailure(`regex parse error: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
}

/** Every match of a global regex in `text`, stepping past empty matches. */
export function* allMatches(regex: RegExp, text: string): Generator<RegExpExecArray> {
  regex.lastIndex = 0;
  for (let match = regex.exec(text); match !== null; match = regex.exec(text)) {
    yield match;
    if (match[0] === '') regex.lastIndex = advance(text, regex.lastIndex, regex.unicode);
  }
}

function advance(text: string, index: number, unicode: boolean): number {
  if (!unicode || index >= text.length) return index + 1;
  const code = text.charCodeAt(index);
  return code >= 0xd800 && code <= 0xdbff ? index + 2 : index + 1;
}
