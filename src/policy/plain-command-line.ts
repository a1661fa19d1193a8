import type { CommandPart } from './command-part.js';
import { analyseCommandWords } from './shell-part-analysis.js';
import type { ShellWord } from './shell-words.js';

/**
 * Most command lines a model writes are plain: words of ordinary characters, perhaps quoted, joined
 * by `&&`, `||`, `|` and `;`, perhaps with a comment at the end (`git log -n 5 --oneline && git
 * commit -m "fix the bug" | wc -l # count`). Their parse is fixed by the text alone, so they are split here, with no parser (tree-sitter's WebAssembly costs far more than the
 * decision around it, and its grammar loads on first use). Everything else — an expansion, `$"…"`,
 * a redirection, a glob, a keyword, an assignment, a number that is not plain digits, a line the
 * shell would reject — returns null and goes to tree-sitter. The table test
 * (plain-command-line.test.ts) holds this to the same analysis as tree-sitter's for every line it
 * accepts.
 */

/**
 * What a plain word may hold: the characters `quoteWord` writes back unquoted (no quoting, no
 * expansion) but `@`, which the grammar splits words at (`- a@b` reads as `@b`).
 */
const WORD_CHAR = /[A-Za-z0-9_%+=:,./-]/;
/** Inside '…': any text on one line. Inside "…": no expansion, escape or history mark either. */
const NOT_PLAIN_IN_QUOTES = /[\n\r]/;
const NOT_PLAIN_IN_DOUBLE_QUOTES = /[\n\r$`\\!]/;
/** A command's name: fewer characters still (the grammar reads `--format=x cmd` as an assignment). */
const COMMAND_NAME = /^(?:[A-Za-z0-9_./-]+|:)$/;
/** `NAME=value` anywhere (an assignment before a command; `dd if=x` is left to the parser too). */
const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/;
/** The grammar reads `-5` or `0x1f` as a number node (not literal to the analysis): left to it. */
const NUMBER_START = /^-?[0-9]/;
const DIGITS = /^[0-9]+$/;
/** Words the grammar reads as keywords or declarations wherever they stand. */
const KEYWORDS = new Set([
  'if',
  'then',
  'else',
  'elif',
  'fi',
  'case',
  'esac',
  'for',
  'select',
  'while',
  'until',
  'do',
  'done',
  'in',
  'function',
  'time',
  'coproc',
  'declare',
  'typeset',
  'export',
  'readonly',
  'local',
  'unset',
  'unsetenv',
]);

type Token =
  | { readonly word: string; readonly value: string; readonly start: number; readonly end: number }
  | { readonly operator: string };

/** The parts of a plain command line, in the order tree-sitter finds them; null when the line is not plain. */
export function parsePlainCommandLine(command: string): CommandPart[] | null {
  const tokens = tokenize(command);
  if (tokens === null || tokens.length === 0) return null;
  const parts: CommandPart[] = [];
  let words: ShellWord[] = [];
  let start = 0;
  let end = 0;
  for (const token of tokens) {
    if ('operator' in token) {
      // An operator with no command before it is a syntax error: the parser says so.
      if (words.length === 0) return null;
      const part = plainPart(command.slice(start, end), words);
      if (part === null) return null;
      parts.push(part);
      words = [];
      continue;
    }
    if (!isPlainWord(token.word) || (words.length === 0 && !COMMAND_NAME.test(token.word))) return null;
    if (words.length === 0) start = token.start;
    end = token.end;
    words.push({ value: token.value, text: token.word, splits: false });
  }
  if (words.length > 0) {
    const part = plainPart(command.slice(start, end), words);
    if (part === null) return null;
    parts.push(part);
  } else if (lastOperator(tokens) !== ';') {
    return null; // `a &&`, `a |`: the line goes on past its end
  }
  return parts;
}

function lastOperator(tokens: readonly Token[]): string | null {
  const last = tokens[tokens.length - 1];
  return last !== undefined && 'operator' in last ? last.operator : null;
}

function isPlainWord(word: string): boolean {
  if (KEYWORDS.has(word) || ASSIGNMENT.test(word)) return false;
  return !NUMBER_START.test(word) || DIGITS.test(word);
}

/** A command of plain words; null when it parses command lines in turn (`bash -c ls`): the parser reads those. */
function plainPart(text: string, words: readonly ShellWord[]): CommandPart | null {
  // No redirection in a plain line: a shell reading its input reads the pipe (unknown).
  const { part, nested } = analyseCommandWords(text, [], words, () => null);
  return nested.length > 0 ? null : part;
}

/** Words and the operators `&&`, `||`, `|`, `;` (one at a time) up to a comment; null at any other character. */
function tokenize(command: string): Token[] | null {
  const tokens: Token[] = [];
  let i = 0;
  while (i < command.length) {
    const c = command[i]!;
    if (c === ' ' || c === '\t') {
      i++;
    } else if (c === '&' || c === '|' || c === ';') {
      const pair = command.slice(i, i + 2);
      const operator = pair === '&&' || pair === '||' ? pair : c;
      if (operator === '&') return null; // a background job: left to the parser
      const previous = tokens[tokens.length - 1];
      // `;;`, `| |`, `&& ;`: two operators in a row are a syntax error (or a case clause).
      if (previous !== undefined && 'operator' in previous) return null;
      tokens.push({ operator });
      i += operator.length;
    } else if (c === '#') {
      // A comment, to the end of the line; a `#` inside a word (`a#b`) is none: the parser reads it.
      if ((i > 0 && !' \t;&|'.includes(command[i - 1]!)) || command.includes('\n', i)) return null;
      break;
    } else if (WORD_CHAR.test(c) || c === "'" || c === '"') {
      const start = i;
      let value = '';
      while (i < command.length) {
        const char = command[i]!;
        if (WORD_CHAR.test(char)) {
          value += char;
          i++;
        } else if (char === "'" || char === '"') {
          const close = command.indexOf(char, i + 1);
          if (close === -1) return null;
          const quoted = command.slice(i + 1, close);
          if ((char === '"' ? NOT_PLAIN_IN_DOUBLE_QUOTES : NOT_PLAIN_IN_QUOTES).test(quoted)) return null;
          value += quoted;
          i = close + 1;
        } else break;
      }
      tokens.push({ word: command.slice(start, i), value, start, end: i });
    } else {
      return null;
    }
  }
  return tokens;
}
