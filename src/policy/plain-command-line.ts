import { isCodeVariable, isCommandVariable } from './code-variables.js';
import type { CommandPart } from './command-part.js';
import { KEYWORDS, startsWithKeyword } from './shell-keywords.js';
import { type AssignedVariable, analyseCommandWords } from './shell-part-analysis.js';
import { type ShellWord, splitsIntoElements } from './shell-words.js';

/**
 * Most command lines a model writes are plain: words of ordinary characters, perhaps quoted, joined
 * by `&&`, `||`, `|` and `;`, output redirections after a command's words, a comment at the end
 * (`git log -n 5 --oneline && npm test 2>&1 | tail -20 # count`). Their parse is fixed by the text
 * alone, so they are split here, with no parser (tree-sitter's WebAssembly costs far more than the
 * decision around it, and its grammar loads on first use). Assignments with literal values may
 * stand before a command's name (`IFS= read -r f`: never simple). Everything else — an expansion,
 * `$"…"`, an input or unusual redirection, a glob, a keyword, an assignment elsewhere, a number that
 * is not plain digits, a line the shell would reject — returns null and goes to tree-sitter. The
 * table test (plain-command-line.test.ts) holds this to the same analysis as tree-sitter's for
 * every line it accepts.
 */

/**
 * What a plain word may hold: the characters `quoteWord` writes back unquoted (no quoting, no
 * expansion) but `@`, which the grammar splits words at (`- a@b` reads as `@b`).
 */
const WORD_CHAR = /[A-Za-z0-9_%+=:,./-]/;
/** Inside '…': any text on one line. Inside "…": no expansion, escape or history mark either (but see scanExpandedString). */
const NOT_PLAIN_IN_QUOTES = /[\n\r]/;
const NOT_PLAIN_IN_DOUBLE_QUOTES = /[\n\r$`\\!]/;
/**
 * A command's name: fewer characters still. `--format=x` is one (no variable has that name; the
 * grammar files it under variable_assignment, and shell-part-analysis.ts reads it back as the word).
 */
const COMMAND_NAME = /^(?:[A-Za-z0-9_./=-]+|:)$/;
/** `NAME=value`: an assignment before a command's name; anywhere else (`dd if=x`) left to the parser. */
const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/;

export type Token =
  /**
   * A word; its value is null for one double-quoted string with variables or plain command
   * substitutions in it (`"fix $N"`, `"v$(date)"`), whose commands are `inner`.
   */
  | {
      readonly word: string;
      readonly value: string | null;
      readonly start: number;
      readonly end: number;
      readonly inner?: readonly CommandPart[];
    }
  /**
   * A redirection after a command's words (`2>&1`, `> out`, `2>> "log file"`, `< in`), as written;
   * `reads` for an input redirection, which only a loop's tail may hold (see parsePlainLoop).
   */
  | { readonly redirect: string; readonly reads: boolean; readonly start: number; readonly end: number }
  | { readonly operator: string; readonly start: number; readonly end: number };

/** The parts of a plain command line, in the order tree-sitter finds them; null when the line is not plain. */
export function parsePlainCommandLine(command: string): CommandPart[] | null {
  // A keyword as the first word (`case x in …`, `if …`, `select …`) is refused whatever follows
  // (parsePlainTokens refuses a keyword word): such a line, which tree-sitter reads, is not tokenized.
  if (startsWithKeyword(command)) return null;
  const tokens = tokenize(command);
  return tokens === null ? null : parsePlainTokens(command, tokens);
}

/**
 * The same from tokens `tokenize` made of `command` (a run of them: a loop's body, say, whose
 * positions are in `command`); null when they are no plain line.
 */
export function parsePlainTokens(command: string, tokens: readonly Token[]): CommandPart[] | null {
  if (tokens.length === 0) return null;
  const parts: CommandPart[] = [];
  // The names of `NAME=value` words before a command's name: variables set for it.
  let assignments: string[] = [];
  let commandVariables: AssignedVariable[] = [];
  let words: ShellWord[] = [];
  let redirects: CommandPart[] = [];
  // The commands of the words' substitutions: after their command, before its redirections.
  let inner: CommandPart[] = [];
  let start = 0;
  let end = 0;
  for (const token of tokens) {
    if ('operator' in token) {
      // An operator with no command before it is a syntax error: the parser says so.
      if (words.length === 0) return null;
      const part = plainPart(command.slice(start, end), assignments, words, commandVariables);
      if (part === null) return null;
      parts.push(...part, ...inner, ...redirects);
      assignments = [];
      commandVariables = [];
      words = [];
      redirects = [];
      inner = [];
      continue;
    }
    if ('redirect' in token) {
      if (words.length === 0) return null; // before the command's name: left to the parser
      // A shell reading its input reads the file (unknown here), not the pipe: left to the parser.
      if (token.reads) return null;
      // The grammar drops a lone `-` before some redirections (`x - 2>&1`); the analysis puts it
      // back (shell-part-analysis.ts), as the word bash passes. A command that is only such a word
      // (`- 2>&1`) it drops whole; after an operator (`x | y - 2>&1`, a loop's body or the line
      // after it) the redirection goes to the pipeline or list and the analysis loses the word:
      // both left to the parser.
      if (
        words[words.length - 1]!.text.endsWith('-') &&
        (words.length === 1 || !isFirst(command, tokens, parts))
      )
        return null;
      redirects.push(redirectPart(token.redirect));
      continue;
    }
    // A word after a redirection is an argument the grammar files under the redirection: the parser
    // (and shell-part-analysis.ts) reads those.
    if (redirects.length > 0) return null;
    if (words.length === 0 && ASSIGNMENT.test(token.word)) {
      // A literal value only (`IFS=`, `A="x y"`): whatever an expansion makes, the parser reads.
      if (token.value === null) return null;
      if (assignments.length === 0) start = token.start;
      const name = token.word.slice(0, token.word.indexOf('='));
      assignments.push(name);
      if (isCommandVariable(name)) commandVariables.push({ name, value: token.value.slice(name.length + 1) });
      // BASH_ENV, LD_PRELOAD…: code nobody reads here, which the parser's reading adds (rare).
      else if (isCodeVariable(name)) return null;
      continue;
    }
    if (!isPlainWord(token.word) || (words.length === 0 && !COMMAND_NAME.test(token.word))) return null;
    if (words.length === 0 && assignments.length === 0) start = token.start;
    end = token.end;
    // `"$@"` (the arguments a program adds, code-variables.ts): one word per argument.
    const splits = token.value === null && splitsIntoElements(token.word);
    words.push({ value: token.value, text: token.word, splits });
    if (token.inner) inner.push(...token.inner);
  }
  if (words.length > 0) {
    const part = plainPart(command.slice(start, end), assignments, words, commandVariables);
    if (part === null) return null;
    parts.push(...part, ...inner, ...redirects);
  } else if (assignments.length > 0 || lastOperator(tokens) !== ';') {
    // `A=1` alone is a statement that sets a shell variable; after `a &&`, `a |` the line goes on
    // past its end: the parser reads both.
    return null;
  }
  return parts;
}

/** Whether the command being read is the first of `command`: no part before it, only blanks before its tokens. */
function isFirst(command: string, tokens: readonly Token[], parts: readonly CommandPart[]): boolean {
  const first = tokens[0];
  return parts.length === 0 && first !== undefined && command.slice(0, first.start).trim() === '';
}

/** An output redirection with a literal target (plain or quoted): simple, read as written, as tree-sitter's analysis does. */
export function redirectPart(redirect: string): CommandPart {
  return { text: redirect, notSimple: null, literal: redirect, invocations: [] };
}

function lastOperator(tokens: readonly Token[]): string | null {
  const last = tokens[tokens.length - 1];
  return last !== undefined && 'operator' in last ? last.operator : null;
}

/** Numbers (`-5`, `08`, `0x1f`) are plain words too: the analysis reads the grammar's number nodes as literal. */
export function isPlainWord(word: string): boolean {
  return !KEYWORDS.has(word) && !ASSIGNMENT.test(word);
}

/**
 * A command of plain words, then the parts of the lines a variable set for it makes it run
 * (`GIT_PAGER=cat git log`: `cat "$@"`, itself a plain line), in the order tree-sitter finds them;
 * null when it parses command lines in turn that are not plain (`bash -c ls`): the parser reads those.
 */
function plainPart(
  text: string,
  assignments: readonly string[],
  words: readonly ShellWord[],
  commandVariables: readonly AssignedVariable[],
): CommandPart[] | null {
  // Words that all hold `=` (`--format=x`, `--x=y --y=z`) are a statement of assignments to the
  // grammar, not a command (bash runs `--x=y`): left to the parser.
  if (words.every((word) => word.text.includes('='))) return null;
  // No input redirection in a plain line: a shell reading its input reads the pipe (unknown).
  const { part, nested } = analyseCommandWords(text, assignments, words, () => null, commandVariables);
  if (nested.length === 0) return [part];
  // Only variables' lines are split here (a wrapper's string, `bash -c …`, goes to the parser), and
  // only those with no `=` (no variable set in them, which would nest one level more).
  if (nested.length !== commandVariables.length) return null;
  const parts = [part];
  for (const line of nested) {
    const inner = line.includes('=') ? null : parsePlainCommandLine(line);
    if (inner === null) return null;
    parts.push(...inner);
  }
  return parts;
}

/**
 * Words, output redirections, plain input redirections (`< in`) and the operators `&&`, `||`, `|`,
 * `;` (one at a time) up to a comment; null at any other character.
 */
export function tokenize(command: string): Token[] | null {
  const tokens: Token[] = [];
  let i = 0;
  while (i < command.length) {
    const c = command[i]!;
    if (c === ' ' || c === '\t') {
      i++;
    } else if (c === '>' || (c === '&' && command[i + 1] === '>')) {
      const redirect = scanRedirect(command, i, tokens);
      if (redirect === null) return null;
      tokens.push({
        redirect: command.slice(redirect.start, redirect.end),
        reads: false,
        start: redirect.start,
        end: redirect.end,
      });
      i = redirect.end;
    } else if (c === '<') {
      const redirect = scanInputRedirect(command, i, tokens);
      if (redirect === null) return null;
      tokens.push({
        redirect: command.slice(redirect.start, redirect.end),
        reads: true,
        start: redirect.start,
        end: redirect.end,
      });
      i = redirect.end;
    } else if (c === '&' || c === '|' || c === ';') {
      const pair = command.slice(i, i + 2);
      const operator = pair === '&&' || pair === '||' ? pair : c;
      if (operator === '&') return null; // a background job: left to the parser
      const previous = tokens[tokens.length - 1];
      // `;;`, `| |`, `&& ;`: two operators in a row are a syntax error (or a case clause).
      if (previous !== undefined && 'operator' in previous) return null;
      tokens.push({ operator, start: i, end: i + operator.length });
      i += operator.length;
    } else if (c === '#') {
      // A comment, to the end of the line; a `#` inside a word (`a#b`) is none: the parser reads it.
      if ((i > 0 && !' \t;&|'.includes(command[i - 1]!)) || command.includes('\n', i)) return null;
      break;
    } else if (WORD_CHAR.test(c) || c === "'" || c === '"') {
      const word = scanWord(command, i);
      if (word === null) return null;
      tokens.push(word);
      i = word.end;
    } else {
      return null;
    }
  }
  return tokens;
}

/**
 * A word (plain characters and quoted pieces) from `start`; null when a quote is not plain or not
 * closed. `wordChar` says which characters stand unquoted in it (a loop's words may hold globs).
 */
export function scanWord(
  command: string,
  start: number,
  wordChar: RegExp = WORD_CHAR,
): { word: string; value: string | null; start: number; end: number } | null {
  if (command[start] === '"') {
    const expanded = scanExpandedString(command, start);
    if (expanded !== undefined) return expanded;
  }
  let i = start;
  let value = '';
  while (i < command.length) {
    const char = command[i]!;
    if (wordChar.test(char)) {
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
  return { word: command.slice(start, i), value, start, end: i };
}

/** Plain text inside "…" (no expansion, escape, history mark, subscript or brace). */
const PLAIN_IN_STRING = /[A-Za-z0-9_%+=:,./@ -]/;
/** `$NAME` or `${NAME}` (not followed by a subscript or more of a name), or `$@`. */
const VARIABLE = /^\$(?:@|[A-Za-z_][A-Za-z0-9_]*(?![A-Za-z0-9_[])|\{[A-Za-z_][A-Za-z0-9_]*\})/;
/** What a `$(…)` inside "…" may hold: no quote, parenthesis, expansion, escape, comment or line break. */
const PLAIN_SUBSTITUTION = /^[^"'`$\\()#!\n\r]*$/;

/**
 * A word that is one double-quoted string standing alone whose content is plain text, variables
 * (`$NAME`, `${NAME}`) and command substitutions holding a plain line (`$(date)`, `$(ls | wc -l)`):
 * one string to the grammar, whose value an expansion decides and which the shell does not split;
 * the substitutions' commands are its `inner` parts, as tree-sitter finds them. Null when such a
 * string holds anything else or stands against more text (`a"$N"`: the parser reads those);
 * undefined when it holds no `$` (an ordinary word).
 */
function scanExpandedString(
  command: string,
  start: number,
): { word: string; value: null; start: number; end: number; inner: CommandPart[] } | null | undefined {
  const close = command.indexOf('"', start + 1);
  if (close === -1) return undefined;
  const quoted = command.slice(start + 1, close);
  if (!quoted.includes('$')) return undefined;
  const inner: CommandPart[] = [];
  let i = 0;
  while (i < quoted.length) {
    if (PLAIN_IN_STRING.test(quoted[i]!)) {
      i++;
      continue;
    }
    if (quoted.startsWith('$(', i)) {
      const end = quoted.indexOf(')', i + 2);
      if (end === -1) return null;
      const line = quoted.slice(i + 2, end);
      const parts = PLAIN_SUBSTITUTION.test(line) ? parsePlainCommandLine(line) : null;
      if (parts === null) return null;
      inner.push(...parts);
      i = end + 1;
      continue;
    }
    const variable = VARIABLE.exec(quoted.slice(i));
    if (variable === null) return null;
    i += variable[0].length;
  }
  const next = command[close + 1];
  if (next !== undefined && !' \t;&|'.includes(next)) return null;
  return { word: command.slice(start, close + 1), value: null, start, end: close + 1, inner };
}

/** A descriptor number: one digit but 0 (the grammar reads `0>x` and `08>x` otherwise). */
const DESCRIPTOR = /^[1-9]$/;
/** What may follow a redirection: a blank, an operator, the end. */
const AFTER_REDIRECT = /^(?:[ \t;|&]|$)/;

/**
 * An output redirection at `at`: `>`, `>>` or `&>` and a target word, or `>&N` (a descriptor
 * copied), perhaps after a descriptor number written against it (`2>&1`: the digits word just
 * before is taken back from `tokens`). Null for anything else (`>|`, `>&-`, `&>>`, a target that is
 * no plain word, a word written against `>` that is not a number): the parser reads those.
 */
function scanRedirect(command: string, at: number, tokens: Token[]): { start: number; end: number } | null {
  let start = at;
  const previous = tokens[tokens.length - 1];
  if (previous !== undefined && 'word' in previous && previous.end === at) {
    if (!DESCRIPTOR.test(previous.word)) return null;
    tokens.pop();
    start = previous.start;
  }
  let i = at;
  if (command.startsWith('&>', i)) {
    if (start !== at) return null; // `2&>`: not a descriptor form
    i += 2;
  } else if (command.startsWith('>&', i)) {
    i += 2;
    if (!DESCRIPTOR.test(command[i] ?? '')) return null;
    i += 1;
    return AFTER_REDIRECT.test(command.slice(i, i + 1)) ? { start, end: i } : null;
  } else {
    i += command.startsWith('>>', i) ? 2 : 1;
  }
  return scanTarget(command, i, start);
}

/**
 * `<` and a plain target word at `at` (`< in`, `<"a b"`); null for anything else (`<<`, `<<<`, `<&`,
 * `<>`, `<(…)`, a descriptor number or any word written against it): the parser reads those.
 */
function scanInputRedirect(
  command: string,
  at: number,
  tokens: readonly Token[],
): { start: number; end: number } | null {
  const previous = tokens[tokens.length - 1];
  if (previous !== undefined && 'word' in previous && previous.end === at) return null;
  return scanTarget(command, at + 1, at);
}

/** A redirection's target word from `from` (after blanks): plain or quoted, followed by a blank, an operator or the end. */
function scanTarget(command: string, from: number, start: number): { start: number; end: number } | null {
  let i = from;
  while (command[i] === ' ' || command[i] === '\t') i++;
  if (!WORD_CHAR.test(command[i] ?? '') && command[i] !== "'" && command[i] !== '"') return null;
  const target = scanWord(command, i);
  if (target === null || target.value === null || !isPlainWord(target.word)) return null;
  return AFTER_REDIRECT.test(command.slice(target.end, target.end + 1)) ? { start, end: target.end } : null;
}
