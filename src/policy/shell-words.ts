import type { SyntaxNode } from './bash-tree.js';

/**
 * One word of a command as the shell will pass it: its value after quote removal when that value is
 * fixed by the text alone, or unknown when an expansion decides it (a variable, `$(…)`, a glob, `~`,
 * `{a,b}`, `$'…'`, arithmetic).
 */
export interface ShellWord {
  /** The word after quote removal; null when the text alone does not fix it. */
  readonly value: string | null;
  /** The word as written. */
  readonly text: string;
  /**
   * An unknown word the shell may split into several (an unquoted `$x`, `$(…)` or glob): it may
   * stand for a command name, its flags and its operands at once.
   */
  readonly splits: boolean;
}

/**
 * A node's named children, asked one by one: web-tree-sitter's `namedChildren` has the WebAssembly
 * side allocate and free a buffer for them at each call, which costs more than the calls (bench,
 * the loop's tree: 9-15 µs a walk that way, 7.4 µs this way).
 */
export function namedChildrenOf(node: SyntaxNode): SyntaxNode[] {
  const count = node.namedChildCount;
  const children: SyntaxNode[] = [];
  for (let i = 0; i < count; i++) {
    const child = node.namedChild(i);
    if (child) children.push(child);
  }
  return children;
}

/** A word the policy made up: what xargs or `find -exec {}` put in, never a literal. */
export const UNKNOWN_WORD: ShellWord = { value: null, text: '…', splits: true };

/**
 * A command the policy made up for code it cannot read (`python3 -c '…'`, an awk program calling
 * system(), a script from `<(…)`): it might run anything, so a deny rule asks rather than denies.
 */
export const CODE_WORD: ShellWord = { value: null, text: '(code)', splits: false };

/** Node types that are one word of a command (its name or an argument). */
export const WORD_NODES = new Set([
  'word',
  'number',
  'string',
  'raw_string',
  'ansi_c_string',
  'translated_string',
  'concatenation',
  'simple_expansion',
  'expansion',
  'command_substitution',
  'process_substitution',
  'arithmetic_expansion',
  'brace_expression',
]);

/** Nodes whose value only runs time can tell and that the shell splits into words when unquoted. */
const SPLITTING = new Set(['simple_expansion', 'expansion', 'command_substitution', 'arithmetic_expansion']);

/** `$@`, `${@…}`, `${!a[@]}`, `${a[@]…}`: expansions to as many words as there are elements. */
const ALL_ELEMENTS = /\$\{?[!#]?@|\[@\]/;

/** Whether a quoted word's text expands to one word per element (`"$@"`, `"${a[@]}"`). */
export function splitsIntoElements(text: string): boolean {
  return ALL_ELEMENTS.test(text);
}

/** `type` is the node's, when the caller has read it (each read crosses into WebAssembly and back). */
export function shellWord(node: SyntaxNode, source: string, type: string = node.type): ShellWord {
  const text = source.slice(node.startIndex, node.endIndex);
  // A plain word (the common case) needs no more reads of the tree.
  const value = type === 'word' ? unquotedValue(text) : literalValue(node, type, text);
  return { value, text, splits: value === null && canSplit(node, type) };
}

function canSplit(node: SyntaxNode, type: string): boolean {
  if (SPLITTING.has(type) || type === 'brace_expression') return true;
  // `"$@"`, `"${a[@]}"`: quoted, yet one word per element (`"${a[@]}"` as a name runs the array).
  if (type === 'string') return splitsIntoElements(node.text);
  if (type === 'word') return true; // a glob, `~` or `{a,b}`: any number of words
  if (type === 'concatenation') {
    return namedChildrenOf(node).some((child) => canSplit(child, child.type));
  }
  return false;
}

/** The word's value after quote removal, or null when an expansion decides it. */
function literalValue(node: SyntaxNode, type: string, text: string): string | null {
  switch (type) {
    case 'word':
      return unquotedValue(text);
    case 'number':
      // `-5`, `08`, `2#11`: the grammar's numbers are plain words to the shell (`head -5`, `xargs -0`).
      return unquotedValue(text);
    case 'raw_string':
      return text.slice(1, -1);
    case 'string':
      return doubleQuotedValue(node, text);
    case 'concatenation': {
      let value = '';
      for (const child of node.children) {
        if (!child) continue;
        const part = literalValue(child, child.type, child.text);
        if (part === null) return null;
        value += part;
      }
      // The parser splits `{a,b}` into pieces that each look plain: the shell expands it.
      return BRACES.test(text) ? null : value;
    }
    default:
      // $'…' (escapes decoded: a second meaning), $"…" (translated), expansions, substitutions.
      return null;
  }
}

/**
 * An unquoted word: backslashes removed (`\rm` is `rm`); null if the shell would expand it — a glob
 * (`*`, `?`, `[`, whose matches come from file names anyone can create), a leading `~`, braces with a
 * comma or `..`, a `$` the parser left inside a word.
 */
function unquotedValue(text: string): string | null {
  let value = '';
  let braceOpen = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i]!;
    if (char === '\\') {
      i++;
      if (i < text.length && text[i] !== '\n') value += text[i];
      continue;
    }
    if (char === '*' || char === '?' || char === '[' || char === '$' || char === '`') return null;
    if (char === '~' && i === 0) return null;
    if (char === '{') braceOpen = true;
    if (braceOpen && (char === ',' || (char === '.' && text[i + 1] === '.'))) return null;
    value += char;
  }
  return value;
}

/** `"…"`: only plain text (no `$x`, `$(…)`, backquotes); `\$ \` \" \\` and `\` + newline unescaped. */
function doubleQuotedValue(node: SyntaxNode, text: string): string | null {
  if (text.startsWith('$')) return null; // $"…": looked up in a message catalogue
  for (const child of namedChildrenOf(node)) {
    if (child && child.type !== 'string_content') return null;
  }
  const inner = text.slice(1, -1);
  if (inner.includes('$') || inner.includes('`')) return null;
  return inner.replace(/\\([$`"\\\n])/g, (_match, escaped: string) => (escaped === '\n' ? '' : escaped));
}

const BRACES = /\{[^}]*(?:,|\.\.)[^}]*\}/;

const SAFE_WORD = /^[A-Za-z0-9_@%+=:,./-]+$/;

/** A literal word written back so that it reads as one word: `fix bug` → `'fix bug'`. */
export function quoteWord(value: string): string {
  if (SAFE_WORD.test(value)) return value;
  return `'${value.replaceAll("'", `'\\''`)}'`;
}
