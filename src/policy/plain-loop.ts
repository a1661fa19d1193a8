import type { CommandPart } from './command-part.js';
import {
  isPlainWord,
  KEYWORDS,
  parsePlainCommandLine,
  redirectPart,
  scanWord,
  tokenize,
} from './plain-command-line.js';

/**
 * The loop a model writes on one line — `for f in src/*.ts; do wc -l "$f"; done > out.txt` — split
 * without tree-sitter, as plain-command-line.ts splits a plain line (tree-sitter's WebAssembly parse
 * cost a loop several times what a plain line's decision does). Only this shape: `for NAME in` plain
 * words or globs (`*`, `?`), perhaps quoted, holding no expansion; `; do`, a plain line ending in
 * `;`, `done`; then nothing but output redirections and a comment. Everything else — a loop inside
 * a larger line, nested loops, `select`, `for ((…))`, a line break, a word the shell expands —
 * returns null and goes to tree-sitter. The table test (plain-loop.test.ts) holds this to
 * tree-sitter's parse for every line it accepts.
 */
export interface PlainLoop {
  /** As tree-sitter lists them: the body's parts, then the loop's redirections. */
  readonly parts: CommandPart[];
  /** The words the loop hands to its body, as written (ParsedCommand.loopWords). */
  readonly loopWords: string[];
}

const HEADER = /^[ \t]*for[ \t]+([A-Za-z_][A-Za-z0-9_]*)[ \t]+in[ \t]/;
/** What a loop's word may hold unquoted: a plain word's characters, and `*` and `?` (no `[`: `a[1]` may be a subscript). */
const LOOP_WORD_CHAR = /[A-Za-z0-9_%+=:,./*?-]/;
const BLANKS = ' \t';

/** The parts and loop words of a plain one-line loop; null when the line is anything else. */
export function parsePlainLoop(command: string): PlainLoop | null {
  const header = HEADER.exec(command);
  if (header === null || KEYWORDS.has(header[1]!)) return null;
  const loopWords: string[] = [];
  let i = header[0].length;
  for (;;) {
    while (BLANKS.includes(command[i] ?? '\n')) i++;
    if (command[i] === ';') break;
    const word = scanWord(command, i, LOOP_WORD_CHAR);
    // Not a word, a quote not plain or not closed, an expansion inside "…", a keyword or assignment.
    if (word === null || word.end === i || word.value === null || !isPlainWord(word.word)) return null;
    loopWords.push(word.word);
    i = word.end;
    // A word goes on past a character no plain word holds (`a[1]`, `a#b`, `@(x)`): the parser reads it.
    if (!`${BLANKS};`.includes(command[i] ?? '\n')) return null;
  }
  if (loopWords.length === 0) return null;
  i++;
  while (BLANKS.includes(command[i] ?? '\n')) i++;
  if (!command.startsWith('do', i) || !BLANKS.includes(command[i + 2] ?? '\n')) return null;
  const rest = command.slice(i + 2);
  const tokens = tokenize(rest);
  if (tokens === null) return null;
  // The body ends at the first `done` after a `;` (a `done` elsewhere is a word the body's plain
  // parse refuses, or tail that is no redirection).
  let done = -1;
  for (let k = 1; k < tokens.length && done === -1; k++) {
    const token = tokens[k]!;
    const before = tokens[k - 1]!;
    if ('word' in token && token.word === 'done' && 'operator' in before && before.operator === ';') done = k;
  }
  const doneToken = tokens[done];
  if (doneToken === undefined || !('word' in doneToken)) return null;
  const parts = parsePlainCommandLine(rest.slice(0, doneToken.start));
  if (parts === null) return null;
  for (const token of tokens.slice(done + 1)) {
    if (!('redirect' in token)) return null;
    parts.push(redirectPart(token.redirect));
  }
  return { parts, loopWords };
}
