/** Splits a command part into words with quotes and backslashes removed (enough to read file names). */
export function splitWords(text: string): string[] {
  // No quote or backslash (most parts): the words are the runs between blanks.
  if (!QUOTING.test(text)) return blankSeparated(text);
  const words: string[] = [];
  let current = '';
  let inWord = false;
  let quote: '"' | "'" | null = null;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quote) {
      if (c === quote) quote = null;
      else if (c === '\\' && quote === '"' && i + 1 < text.length) current += text[++i];
      else current += c;
    } else if (c === "'" || c === '"') {
      quote = c;
      inWord = true;
    } else if (c === '\\' && i + 1 < text.length) {
      current += text[++i];
      inWord = true;
    } else if (isBlankChar(text.charCodeAt(i))) {
      if (inWord) words.push(current);
      current = '';
      inWord = false;
    } else {
      current += c;
      inWord = true;
    }
  }
  if (inWord) words.push(current);
  return words;
}

const QUOTING = /['"\\]/;

/** `text.split(/\s+/)` without the empty words, in one pass. */
function blankSeparated(text: string): string[] {
  const words: string[] = [];
  let start = -1;
  for (let i = 0; i < text.length; i++) {
    if (isBlankChar(text.charCodeAt(i))) {
      if (start >= 0) words.push(text.slice(start, i));
      start = -1;
    } else if (start < 0) start = i;
  }
  if (start >= 0) words.push(text.slice(start));
  return words;
}

/** What `\s` matches: ASCII blanks told by their code, others by the regex (Unicode spaces, BOM). */
function isBlankChar(code: number): boolean {
  if (code < 128) return code === 32 || (code >= 9 && code <= 13);
  return BLANK.test(String.fromCharCode(code));
}

const BLANK = /\s/;
