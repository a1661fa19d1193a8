import type { SyntaxNode } from './bash-tree.js';
import type { CommandPart } from './command-part.js';
import {
  namedChildrenOf,
  quoteWord,
  type ShellWord,
  shellWord,
  UNKNOWN_WORD,
  WORD_NODES,
} from './shell-words.js';
import { unwrap } from './shell-wrappers.js';

/**
 * Why a command part is or is not "simple" — the only kind allow rules and command-prefix approvals
 * may cover. Simple: every word is a literal after quote removal, no assignment in front (any
 * variable in a command's environment may change how it is found or what it does: PATH, LD_*, GIT_*,
 * BASH_ENV, NODE_OPTIONS, PYTHON*… — no list of them is complete, so none is simple), no wrapper
 * that runs another command, no code in a string.
 */

/** A node's parent as a walk of the tree found it, with its type. */
export interface ParentNode {
  readonly node: SyntaxNode;
  readonly type: string;
}

/** A `command` node: its words, assignments and wrappers. Also returns the strings it parses in turn. */
export function analyseCommandNode(
  node: SyntaxNode,
  children: readonly (SyntaxNode | null)[],
  source: string,
  /** The node's parent and its type, as the walk found them (asking the node crosses into WebAssembly). */
  parent: ParentNode | null,
): { part: CommandPart; nested: readonly string[]; literalWords: ReadonlySet<SyntaxNode> } {
  const assignments: string[] = [];
  // Children that are words with a literal value (or nothing): no expansion or command inside them.
  const literalWords = new Set<SyntaxNode>();
  const placed: { at: number; word: ShellWord }[] = [];
  // Once a word is not an assignment, bash reads none after it as one (`--format=x B=2 ls` runs
  // `--format=x`); the grammar still files `--format=x` under variable_assignment.
  let assigning = true;
  // Each read of a node's end crosses into WebAssembly and back: read once per child.
  const ends = children.map((child) => child?.endIndex ?? 0);
  placed.push(...wordsReadAsNothing(node, children, ends, source));
  for (const [i, child] of children.entries()) {
    if (!child) continue;
    // A zero-width node (the grammar's empty command name after `a=1 2>&1`) is no word.
    if (child.startIndex === ends[i]) {
      literalWords.add(child);
      continue;
    }
    // Each read of a node's type crosses into WebAssembly and back: it is read once.
    const type = child.type;
    if (type === 'variable_assignment' && assigning && isAssignment(child)) {
      assignments.push(child.childForFieldName('name')?.text ?? child.text.split('=')[0] ?? '');
      continue;
    }
    assigning = false;
    if (type === 'variable_assignment') {
      placed.push({ at: child.startIndex, word: assignmentAsWord(child, source) });
    } else if (type === 'command_name') {
      const name = child.namedChild(0);
      const word = shellWord(name ?? child, source);
      placed.push({ at: child.startIndex, word });
      if (word.value !== null) literalWords.add(child);
    } else if (WORD_NODES.has(type)) {
      const word = shellWord(child, source, type);
      placed.push({ at: child.startIndex, word });
      if (word.value !== null) literalWords.add(child);
    }
  }
  placed.push(...wordsAfterRedirections(node, source, parent));
  placed.sort((a, b) => a.at - b.at);
  const words = placed.map((p) => p.word);
  const text = source.slice(node.startIndex, textEnd(node, source, parent)).trim();
  const { part, nested } = analyseCommandWords(text, assignments, words, () =>
    shellInput(node, source, parent),
  );
  return { part, nested, literalWords };
}

/**
 * Text in a command the grammar read as nothing (`a=1 - 2>&1` drops the `-`): bash passes it as
 * words. When its named children leave only blanks between them, all its children do (an anonymous
 * one is text too), and node.children — a crossing into WebAssembly and a node object per child —
 * is not asked for.
 */
function wordsReadAsNothing(
  node: SyntaxNode,
  named: readonly (SyntaxNode | null)[],
  namedEnds: readonly number[],
  source: string,
): { at: number; word: ShellWord }[] {
  const end = node.endIndex;
  let covered = node.startIndex;
  let blank = true;
  for (const [i, child] of named.entries()) {
    if (!child) continue;
    blank &&= isBlank(source, covered, child.startIndex);
    covered = Math.max(covered, namedEnds[i] ?? 0);
  }
  if (blank && isBlank(source, covered, end)) return [];
  const words: { at: number; word: ShellWord }[] = [];
  covered = node.startIndex;
  for (const child of node.children) {
    if (!child) continue;
    words.push(...skippedWords(source, covered, child.startIndex));
    covered = Math.max(covered, child.endIndex);
  }
  words.push(...skippedWords(source, covered, end));
  return words;
}

/** Blanks and line continuations only (no word) between `from` and `to`. */
const BLANK_GAP = /^(?:[ \t\r\n]|\\\r?\n)*$/;

function isBlank(source: string, from: number, to: number): boolean {
  return to <= from || BLANK_GAP.test(source.slice(from, to));
}

/**
 * The grammar reads the words after a redirection's target (`rm > /dev/null -rf /x`) as more targets,
 * or as arguments of a heredoc (`rm <<EOF -rf x`); bash passes them to the command, so they are its
 * arguments here too (in order, after the words before the redirection).
 */
function wordsAfterRedirections(
  node: SyntaxNode,
  source: string,
  parent: ParentNode | null,
): { at: number; word: ShellWord }[] {
  if (parent?.type !== 'redirected_statement') return [];
  const statement = parent.node;
  const words: { at: number; word: ShellWord }[] = [];
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

/** Where a command's text ends: with the words the grammar dropped before its first redirection. */
function textEnd(node: SyntaxNode, source: string, parent: ParentNode | null): number {
  const next = parent?.type === 'redirected_statement' ? node.nextSibling : null;
  if (!next || next.startIndex <= node.endIndex) return node.endIndex;
  return node.endIndex + source.slice(node.endIndex, next.startIndex).trimEnd().length;
}

/** A name bash takes as a variable's (`A`, `a_1`, or subscripted `a[1]`); `--format` is none. */
const VARIABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

function isAssignment(node: SyntaxNode): boolean {
  const name = node.childForFieldName('name');
  return name?.type !== 'variable_name' || VARIABLE_NAME.test(name.text);
}

/** `--format=x` that the grammar read as an assignment: the word it is to bash (`--format=` and the value). */
function assignmentAsWord(node: SyntaxNode, source: string): ShellWord {
  const text = source.slice(node.startIndex, node.endIndex);
  const valueNode = node.childForFieldName('value');
  if (!valueNode) return { value: unquotedText(text), text, splits: false };
  const head = unquotedText(source.slice(node.startIndex, valueNode.startIndex));
  const value = shellWord(valueNode, source);
  return {
    value: head === null || value.value === null ? null : head + value.value,
    text,
    splits: value.value === null && value.splits,
  };
}

/** Plain characters only (what a name and `=` are); null for anything the shell would read more into. */
function unquotedText(text: string): string | null {
  return /^[A-Za-z0-9_%+=:,./@-]*$/.test(text) ? text : null;
}

/**
 * Words in text the grammar left out of every node between `from` and `to` (it drops the `-` of
 * `x - 2>&1`): bash passes them to the command. Plain ones are literal; any other text is a word
 * nobody can name. Blanks and line continuations are no words.
 */
function skippedWords(source: string, from: number, to: number): { at: number; word: ShellWord }[] {
  if (isBlank(source, from, to)) return [];
  const gap = source.slice(from, to);
  const words: { at: number; word: ShellWord }[] = [];
  for (const match of gap.matchAll(/(?:\\\r?\n|[ \t\r\n])+|([^ \t\r\n]+)/g)) {
    const text = match[1];
    if (text === undefined) continue;
    const value = unquotedText(text);
    words.push({ at: from + (match.index ?? 0), word: { value, text, splits: value === null } });
  }
  return words;
}

/**
 * A command from its words, however they were split (tree-sitter, or the plain command lines that
 * need no parser: simple-command-line.ts): simple or not, its literal form, what it runs. `input`
 * says what a shell reading its input gets (asked only for such a shell).
 */
export function analyseCommandWords(
  text: string,
  assignments: readonly string[],
  words: readonly ShellWord[],
  input: () => string | typeof FILE_INPUT | null,
): { part: CommandPart; nested: readonly string[] } {
  const unwrapped = unwrap(words);
  const unknown = words.find((word) => word.value === null);
  const notSimple =
    assignments.length > 0
      ? `sets ${assignments.join(', ')} for the command (a variable can change how a command is found or what it does)`
      : unknown
        ? `\`${unknown.text}\` is not a literal word (an expansion decides it)`
        : unwrapped.runsOther;
  const nested = [...unwrapped.nested];
  const extra = [...unwrapped.extra];
  if (unwrapped.readsInput) {
    // `bash <<'EOF' … EOF`, `sh <<< 'cmd'`: the text is parsed in turn; from a pipe it is unknown.
    const given = input();
    if (given === null) extra.push([UNKNOWN_WORD]);
    else if (given !== FILE_INPUT) nested.push(given);
  }
  return {
    part: {
      text,
      notSimple,
      literal: notSimple === null ? words.map((word) => quoteWord(word.value ?? '')).join(' ') : null,
      invocations: [...unwrapped.stages, ...extra],
    },
    nested,
  };
}

/** A shell reading its input from a file (`bash < script.sh`): the file is not known here. */
export const FILE_INPUT = Symbol('file');

/** What a shell reading its input gets: a literal heredoc or here-string, a file, or null (unknown). */
function shellInput(
  node: SyntaxNode,
  source: string,
  parent: ParentNode | null,
): string | typeof FILE_INPUT | null {
  const redirects = namedChildrenOf(node);
  if (parent?.type === 'redirected_statement') redirects.push(...namedChildrenOf(parent.node));
  for (const redirect of redirects) {
    if (!redirect) continue;
    if (redirect.type === 'herestring_redirect') {
      const word = namedChildrenOf(redirect).find((child) => WORD_NODES.has(child.type));
      return word ? shellWord(word, source).value : null;
    }
    if (redirect.type === 'heredoc_redirect') {
      if (findNonLiteral(namedChildrenOf(redirect), source) !== null) return null;
      const body = namedChildrenOf(redirect).find((child) => child.type === 'heredoc_body');
      return body ? source.slice(body.startIndex, body.endIndex) : '';
    }
    if (
      redirect.type === 'file_redirect' &&
      source.slice(redirect.startIndex, redirect.endIndex).trim().startsWith('<')
    ) {
      return FILE_INPUT;
    }
  }
  return null;
}

/** Nodes inside a redirection that are fixed text (the operator's file descriptor, a heredoc's lines). */
const PLAIN_REDIRECT_PIECES = new Set(['file_descriptor', 'heredoc_start', 'heredoc_content', 'heredoc_end']);

/** `> out`, `2>&1`, `<<EOF … EOF`, `<<< text`: simple when its target and text are literal. */
export function analyseRedirect(
  node: SyntaxNode,
  source: string,
  /** Its named children, when the caller has them (each ask crosses into WebAssembly). */
  children: readonly SyntaxNode[] = namedChildrenOf(node),
): CommandPart {
  const text = source.slice(node.startIndex, node.endIndex).trim();
  const unknown = findNonLiteral(children, source);
  const notSimple = unknown === null ? null : `\`${unknown}\` is not literal (an expansion decides it)`;
  return { text, notSimple, literal: notSimple === null ? text : null, invocations: [] };
}

function findNonLiteral(children: readonly SyntaxNode[], source: string): string | null {
  for (const child of children) {
    if (!child) continue;
    const type = child.type;
    if (PLAIN_REDIRECT_PIECES.has(type)) continue;
    if (type === 'heredoc_body') {
      const inner = findNonLiteral(namedChildrenOf(child), source);
      if (inner !== null) return inner;
      continue;
    }
    if (!WORD_NODES.has(type) || shellWord(child, source, type).value === null) {
      return source.slice(child.startIndex, child.endIndex);
    }
  }
  return null;
}

const CONSTRUCTS = new Set([
  'declaration_command',
  'unset_command',
  'test_command',
  'function_definition',
  'c_style_for_statement',
  'compound_statement',
  'variable_assignment',
  'variable_assignments',
  'arithmetic_expansion',
  'process_substitution',
  'expansion',
]);

/**
 * Statements that are not commands but change or evaluate something: assignments on their own
 * (`PATH=/tmp/x; git status`), `export`/`declare`/`unset`, `[[ … ]]` and `(( … ))` (arithmetic
 * evaluates variables' values as expressions, which can run code through array subscripts), a
 * function definition (it replaces the command of that name), and `$((…))` or `${x@P}` outside a
 * command. Each is a part that is never simple; null for everything else.
 */
export function analyseConstruct(
  node: SyntaxNode,
  type: string,
  source: string,
  inPart: boolean,
): CommandPart | null {
  if (!CONSTRUCTS.has(type)) return null; // most nodes: nothing to read (this runs for every node)
  const text = source.slice(node.startIndex, node.endIndex).trim();
  const part = (notSimple: string, shown = text): CommandPart => ({
    text: shown,
    notSimple,
    literal: null,
    invocations: [],
  });
  switch (type) {
    case 'declaration_command':
    case 'unset_command':
      return part('changes shell variables for the commands after it');
    case 'test_command':
      return part('a test can evaluate variables as arithmetic');
    case 'function_definition': {
      const name = node.childForFieldName('name')?.text ?? '';
      return part('defines a function, which replaces the command of that name', `${name}() { … }`);
    }
    case 'c_style_for_statement': {
      const body = node.childForFieldName('body');
      const head = body ? source.slice(node.startIndex, body.startIndex).trim() : text;
      return part('arithmetic can run code through variables', head);
    }
    case 'compound_statement':
      return text.startsWith('((') ? part('arithmetic can run code through variables') : null;
    case 'variable_assignment':
    case 'variable_assignments':
      return inPart || node.parent?.type === 'variable_assignments'
        ? null
        : part('sets a shell variable for the commands after it');
    case 'arithmetic_expansion':
    case 'process_substitution':
      return inPart ? null : part('an expansion that can run code');
    case 'expansion':
      return inPart || !/@[PEAKQaUuLk]\}$|\[/.test(text) ? null : part('an expansion that can run code');
    default:
      return null;
  }
}
