import type { SyntaxNode } from './bash-tree.js';
import { namedChildrenOf, type ShellWord, shellWord, UNKNOWN_WORD, WORD_NODES } from './shell-words.js';

/**
 * Words of a command that tree-sitter-bash does not file as the command's own: text it read as
 * nothing (`x - 2>&1` drops the `-`), and words after a redirection's target, which it files under
 * the redirection (`rm > /dev/null -rf /x`). Bash passes both to the command.
 */

/** A node's parent as a walk of the tree found it, with its type. */
export interface ParentNode {
  readonly node: SyntaxNode;
  readonly type: string;
}

/** A word and where it starts in the command line. */
export interface PlacedWord {
  readonly at: number;
  readonly word: ShellWord;
}

/** The command's words with the ones the grammar read as nothing or filed under a redirection, in the text's order. */
export function inTextOrder(
  words: readonly ShellWord[],
  starts: readonly number[],
  before: readonly PlacedWord[],
  after: readonly PlacedWord[],
): ShellWord[] {
  // In the order they were found, then sorted (stably) by where each starts.
  const placed: PlacedWord[] = [...before];
  for (let i = 0; i < words.length; i++) placed.push({ at: starts[i]!, word: words[i]! });
  placed.push(...after);
  placed.sort((a, b) => a.at - b.at);
  return placed.map((p) => p.word);
}

/** No words (most commands): one array for all, never written to. */
const NO_PLACED_WORDS: readonly PlacedWord[] = Object.freeze([]);

/**
 * Text in a command the grammar read as nothing (`a=1 - 2>&1` drops the `-`): bash passes it as
 * words. When its named children leave only blanks between them, all its children do (an anonymous
 * one is text too), and node.children — a crossing into WebAssembly and a node object per child —
 * is not asked for.
 */
export function wordsReadAsNothing(
  node: SyntaxNode,
  named: readonly (SyntaxNode | null)[],
  source: string,
): readonly PlacedWord[] {
  const end = node.endIndex;
  let covered = node.startIndex;
  let blank = true;
  for (let i = 0; i < named.length; i++) {
    const child = named[i];
    if (!child) continue;
    blank &&= isBlank(source, covered, child.startIndex);
    covered = Math.max(covered, child.endIndex);
  }
  if (blank && isBlank(source, covered, end)) return NO_PLACED_WORDS;
  const words: PlacedWord[] = [];
  covered = node.startIndex;
  for (const child of node.children) {
    if (!child) continue;
    words.push(...skippedWords(source, covered, child.startIndex));
    covered = Math.max(covered, child.endIndex);
  }
  words.push(...skippedWords(source, covered, end));
  return words;
}

/**
 * Blanks and line continuations only (no word) between `from` and `to`: what
 * `/^(?:[ \t\r\n]|\\\r?\n)*$/` says of the slice, read in place (most gaps are one blank).
 */
function isBlank(source: string, from: number, to: number): boolean {
  let i = from;
  while (i < to) {
    const c = source.charCodeAt(i);
    if (c === SPACE || c === TAB || c === CR || c === LF) i++;
    else if (c === BACKSLASH && i + 1 < to && source.charCodeAt(i + 1) === LF) i += 2;
    else if (
      c === BACKSLASH &&
      i + 2 < to &&
      source.charCodeAt(i + 1) === CR &&
      source.charCodeAt(i + 2) === LF
    )
      i += 3;
    else return false;
  }
  return true;
}

const SPACE = 0x20;
const TAB = 0x09;
const CR = 0x0d;
const LF = 0x0a;
const BACKSLASH = 0x5c;

/**
 * The grammar reads the words after a redirection's target (`rm > /dev/null -rf /x`) as more targets,
 * or as arguments of a heredoc (`rm <<EOF -rf x`); bash passes them to the command, so they are its
 * arguments here too (in order, after the words before the redirection).
 */
export function wordsAfterRedirections(
  node: SyntaxNode,
  source: string,
  parent: ParentNode | null,
): readonly PlacedWord[] {
  if (parent?.type !== 'redirected_statement') return NO_PLACED_WORDS;
  const statement = parent.node;
  const words: PlacedWord[] = [];
  // Text between the command and its redirections the grammar read as nothing (`x - 2>&1`).
  let covered = node.endIndex;
  for (const child of statement.children) {
    if (!child || child.endIndex <= node.endIndex) continue;
    words.push(...skippedWords(source, covered, child.startIndex));
    covered = Math.max(covered, child.endIndex);
  }
  for (const redirect of namedChildrenOf(statement)) {
    if (!redirect || redirect.id === node.id) continue;
    const type = redirect.type;
    const extra =
      type === 'file_redirect'
        ? redirect.childrenForFieldName('destination').slice(1)
        : type === 'heredoc_redirect'
          ? redirect.childrenForFieldName('argument')
          : [];
    for (const word of extra) {
      if (!word) continue;
      // Whatever else the grammar put there stands for a word nobody can name.
      words.push({
        at: word.startIndex,
        word: WORD_NODES.has(word.type) ? shellWord(word, source) : UNKNOWN_WORD,
      });
    }
  }
  return words;
}

/** Plain characters only (what a name and `=` are); null for anything the shell would read more into. */
export function unquotedText(text: string): string | null {
  return /^[A-Za-z0-9_%+=:,./@-]*$/.test(text) ? text : null;
}

/**
 * Words in text the grammar left out of every node between `from` and `to` (it drops the `-` of
 * `x - 2>&1`): bash passes them to the command. Plain ones are literal; any other text is a word
 * nobody can name. Blanks and line continuations are no words.
 */
function skippedWords(source: string, from: number, to: number): PlacedWord[] {
  if (isBlank(source, from, to)) return [];
  const gap = source.slice(from, to);
  const words: PlacedWord[] = [];
  for (const match of gap.matchAll(/(?:\\\r?\n|[ \t\r\n])+|([^ \t\r\n]+)/g)) {
    const text = match[1];
    if (text === undefined) continue;
    const value = unquotedText(text);
    words.push({ at: from + (match.index ?? 0), word: { value, text, splits: value === null } });
  }
  return words;
}
