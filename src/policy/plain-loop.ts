import type { CommandPart } from './command-part.js';
import {
  isPlainWord,
  parsePlainTokens,
  redirectPart,
  scanWord,
  type Token,
  tokenize,
} from './plain-command-line.js';
import { KEYWORDS } from './shell-keywords.js';

/**
 * The loops a model writes on one line — `for f in src/*.ts; do wc -l "$f"; done > out.txt`,
 * `git ls-files | while read -r f; do wc -l "$f"; done`, `until git pull; do sleep 5; done` — split
 * without tree-sitter, as plain-command-line.ts splits a plain line (tree-sitter's WebAssembly parse
 * cost a loop several times what a plain line's decision does). Only this shape: perhaps a plain
 * line and an operator before it; `for NAME in` plain words or globs (`*`, `?`), perhaps quoted,
 * holding no expansion, then `;` — or `while`/`until` and a plain line ending in `;` holding no
 * command substitution; `do`, a plain line ending in `;`, `done`; then output redirections or plain
 * input ones (`< files.txt`), perhaps an operator and a plain line, a comment. Everything else — a
 * loop inside a loop or a group, two loops, `select`, `for ((…))`, a line break, a word the shell
 * expands, backticks, a heredoc, a quoted `;`, `do` or `done` — returns null and goes to
 * tree-sitter. The table test (plain-loop.test.ts) holds this to tree-sitter's parse for every line
 * it accepts, and checks that near misses are left to it.
 */
export interface PlainLoop {
  /** As tree-sitter lists them: the line before, the condition's, the body's, the loop's redirections, the line after. */
  readonly parts: CommandPart[];
  /** The words a `for` loop hands to its body, as written (ParsedCommand.loopWords). */
  readonly loopWords: string[];
}

/** The first loop keyword at the line's start or after an operator (the text before it is checked). */
const LOOP_START = /(?:^|[|&;])[ \t]*(for|while|until)[ \t]/;
const FOR_HEADER = /^for[ \t]+([A-Za-z_][A-Za-z0-9_]*)[ \t]+in[ \t]/;
/** What a loop's word may hold unquoted: a plain word's characters, and `*` and `?` (no `[`: `a[1]` may be a subscript). */
const LOOP_WORD_CHAR = /[A-Za-z0-9_%+=:,./*?-]/;
const BLANKS = ' \t';
/**
 * A `;` or a loop keyword inside a word (it is quoted: `"a; done"`, `'do'`). The split would read
 * such lines right, but they are where a mistake in it would hide: the parser reads them.
 */
const SEMICOLON_OR_KEYWORD = /;|\bdo(?:ne)?\b/;

/** The parts and loop words of a plain one-line loop; null when the line is anything else. */
export function parsePlainLoop(command: string): PlainLoop | null {
  // A backtick substitution can sit anywhere, quoted or not: never guessed at.
  if (command.includes('`')) return null;
  const start = LOOP_START.exec(command);
  if (start === null) return null;
  const keyword = start[1] as 'for' | 'while' | 'until';
  const at = start.index + start[0].length - 1 - keyword.length;
  const parts = partsBefore(command.slice(0, at));
  if (parts === null) return null;
  const loopWords: string[] = [];
  let rest: string;
  let tokens: Token[] | null;
  // The index in `tokens` where the body starts.
  let body: number;
  if (keyword === 'for') {
    const afterDo = forHeader(command, at, loopWords);
    if (afterDo === null) return null;
    rest = command.slice(afterDo);
    tokens = tokenize(rest);
    body = 0;
  } else {
    rest = command.slice(at + keyword.length);
    tokens = tokenize(rest);
    if (tokens === null) return null;
    const doAt = keywordAfterSemicolon(tokens, 'do', 1);
    if (doAt === -1) return null;
    // A command substitution in the condition decides whether the body runs: the parser reads it.
    if (rest.slice(0, tokens[doAt]!.start).includes('$(')) return null;
    // Each run of tokens is read as the plain line it is (rest's tokens are made once).
    const conditionParts = parsePlainTokens(rest, tokens.slice(0, doAt));
    if (conditionParts === null) return null;
    parts.push(...conditionParts);
    body = doAt + 1;
  }
  if (tokens === null || tokens.length === 0) return null;
  const done = keywordAfterSemicolon(tokens, 'done', body + 1);
  if (done === -1) return null;
  for (const [k, token] of tokens.entries()) {
    if (k !== body - 1 && k !== done && isNearMiss(token)) return null;
  }
  const bodyParts = parsePlainTokens(rest, tokens.slice(body, done));
  if (bodyParts === null) return null;
  parts.push(...bodyParts);
  return afterDone(rest, tokens, done + 1, parts) ? { parts, loopWords } : null;
}

/**
 * The parts of the plain line before the loop, which must end in `|`, `&&`, `||` or `;`; none when
 * there is no text before it; null when the text is anything else.
 */
function partsBefore(text: string): CommandPart[] | null {
  if (text.trim() === '') return [];
  // A comment would hold the loop itself.
  if (text.includes('#')) return null;
  const tokens = tokenize(text);
  const last = tokens?.[tokens.length - 1];
  if (tokens === null || last === undefined || !('operator' in last)) return null;
  if (tokens.some(isNearMiss)) return null;
  return parsePlainTokens(text, tokens.slice(0, -1));
}

/**
 * `for NAME in WORDS; do` from `at`: the words go to `loopWords`; returns where the body's text
 * starts, or null.
 */
function forHeader(command: string, at: number, loopWords: string[]): number | null {
  const header = FOR_HEADER.exec(command.slice(at));
  if (header === null || KEYWORDS.has(header[1]!)) return null;
  let i = at + header[0].length;
  for (;;) {
    while (BLANKS.includes(command[i] ?? '\n')) i++;
    if (command[i] === ';') break;
    const word = scanWord(command, i, LOOP_WORD_CHAR);
    // Not a word, a quote not plain or not closed, an expansion inside "…", a keyword or assignment.
    if (word === null || word.end === i || word.value === null || !isPlainWord(word.word)) return null;
    if (SEMICOLON_OR_KEYWORD.test(word.word)) return null;
    loopWords.push(word.word);
    i = word.end;
    // A word goes on past a character no plain word holds (`a[1]`, `a#b`, `@(x)`): the parser reads it.
    if (!`${BLANKS};`.includes(command[i] ?? '\n')) return null;
  }
  if (loopWords.length === 0) return null;
  i++;
  while (BLANKS.includes(command[i] ?? '\n')) i++;
  if (!command.startsWith('do', i) || !BLANKS.includes(command[i + 2] ?? '\n')) return null;
  return i + 2;
}

/** The first word `keyword` from index `from` that follows a `;` (where the grammar reads it as the keyword); -1 for none. */
function keywordAfterSemicolon(tokens: readonly Token[], keyword: string, from: number): number {
  for (let k = Math.max(from, 1); k < tokens.length; k++) {
    const token = tokens[k]!;
    const before = tokens[k - 1]!;
    if ('word' in token && token.word === keyword && 'operator' in before && before.operator === ';')
      return k;
  }
  return -1;
}

function isNearMiss(token: Token): boolean {
  if ('word' in token) return SEMICOLON_OR_KEYWORD.test(token.word);
  if ('redirect' in token) return SEMICOLON_OR_KEYWORD.test(token.redirect);
  return false;
}

/**
 * What follows `done`: the loop's redirections (output, or input from a plain file) into `parts`,
 * then perhaps an operator and a plain line (nothing after a last `;`). False for anything else.
 */
function afterDone(rest: string, tokens: readonly Token[], from: number, parts: CommandPart[]): boolean {
  for (let k = from; k < tokens.length; k++) {
    const token = tokens[k]!;
    if ('redirect' in token) {
      parts.push(redirectPart(token.redirect));
      continue;
    }
    // A word after the loop (`done x`) is a syntax error, or a target the grammar files oddly.
    if (!('operator' in token)) return false;
    if (k === tokens.length - 1) return token.operator === ';';
    const after = parsePlainTokens(rest, tokens.slice(k + 1));
    if (after === null) return false;
    parts.push(...after);
    return true;
  }
  return true;
}
