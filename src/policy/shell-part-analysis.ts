import { hasArithmeticOnVariables, statementArithmetic } from './arithmetic-code.js';
import type { SyntaxNode } from './bash-tree.js';
import {
  isCodeVariable,
  isCommandVariable,
  setsCodeVariable,
  variableCommandLine,
} from './code-variables.js';
import type { CommandPart } from './command-part.js';
import {
  type AssignedVariable,
  assignedVariable,
  assignmentAsWord,
  isAssignment,
} from './shell-assignments.js';
import {
  inTextOrder,
  type ParentNode,
  wordsAfterRedirections,
  wordsReadAsNothing,
} from './shell-dropped-words.js';
import {
  CODE_WORD,
  namedChildrenOf,
  quoteWord,
  type ShellWord,
  shellWord,
  UNKNOWN_WORD,
  WORD_NODES,
} from './shell-words.js';
import { unwrap } from './shell-wrappers.js';

export { type AssignedVariable, assignedCommandLines } from './shell-assignments.js';
export type { ParentNode } from './shell-dropped-words.js';

/**
 * Why a command part is or is not "simple" — the only kind allow rules and command-prefix approvals
 * may cover. Simple: every word is a literal after quote removal, no assignment in front (any
 * variable in a command's environment may change how it is found or what it does: PATH, LD_*, GIT_*,
 * BASH_ENV, NODE_OPTIONS, PYTHON*… — no list of them is complete, so none is simple), no wrapper
 * that runs another command, no code in a string.
 */

/** A `command` node: its words, assignments and wrappers. Also returns the strings it parses in turn. */
export function analyseCommandNode(
  node: SyntaxNode,
  children: readonly (SyntaxNode | null)[],
  source: string,
  /** The node's parent and its type, as the walk found them (asking the node crosses into WebAssembly). */
  parent: ParentNode | null,
): { part: CommandPart; nested: readonly string[]; toWalk: readonly SyntaxNode[] } {
  const assignments: string[] = [];
  // Those that name a command the program runs (`GIT_SSH_COMMAND=…`), with their values.
  const commandVariables: AssignedVariable[] = [];
  // Children that are no word with a literal value: an expansion or a command may be inside them.
  const toWalk: SyntaxNode[] = [];
  // The words in the children's order, which is the text's: sorted only when words the grammar
  // read as nothing, or filed under a redirection, are added between them.
  const words: ShellWord[] = [];
  const starts: number[] = [];
  // Once a word is not an assignment, bash reads none after it as one (`--format=x B=2 ls` runs
  // `--format=x`); the grammar still files `--format=x` under variable_assignment.
  let assigning = true;
  // Code the assignments in front run: `y=${x@P} git status`, `y=$((x)) git status`.
  let assignedCode: ShellWord[] | null = null;
  // Indexed, as the tree walk's loops are (see collect in shell-command.ts).
  for (let i = 0; i < children.length; i++) {
    const child = children[i];
    if (!child) continue;
    // A zero-width node (the grammar's empty command name after `a=1 2>&1`) is no word.
    if (child.startIndex === child.endIndex) continue;
    // Each read of a node's type crosses into WebAssembly and back: it is read once.
    const type = child.type;
    if (type === 'variable_assignment' && assigning && isAssignment(child)) {
      const name = child.childForFieldName('name')?.text ?? child.text.split('=')[0] ?? '';
      assignments.push(name);
      if (isCommandVariable(name)) commandVariables.push(assignedVariable(child, name, source));
      // BASH_ENV, LD_PRELOAD, NODE_OPTIONS…: code nobody reads here (code-variables.ts).
      else if (isCodeVariable(name)) assignedCode = [...(assignedCode ?? []), CODE_WORD];
      toWalk.push(child);
      const code = codeInText(source.slice(child.startIndex, child.endIndex));
      if (code !== null) assignedCode = [...(assignedCode ?? []), code];
      continue;
    }
    assigning = false;
    let word: ShellWord;
    if (type === 'variable_assignment') {
      word = assignmentAsWord(child, source);
      toWalk.push(child);
    } else if (type === 'command_name') {
      word = shellWord(child.namedChild(0) ?? child, source);
      if (word.value === null) toWalk.push(child);
    } else if (WORD_NODES.has(type)) {
      word = shellWord(child, source, type);
      if (word.value === null) toWalk.push(child);
    } else {
      toWalk.push(child);
      continue;
    }
    words.push(word);
    starts.push(child.startIndex);
  }
  const before = wordsReadAsNothing(node, children, source);
  const after = wordsAfterRedirections(node, source, parent);
  const text = source.slice(node.startIndex, textEnd(node, source, parent)).trim();
  const { part, nested } = analyseCommandWords(
    text,
    assignments,
    before.length === 0 && after.length === 0 ? words : inTextOrder(words, starts, before, after),
    () => shellInput(node, source, parent),
    commandVariables,
  );
  if (assignedCode === null) return { part, nested, toWalk };
  const invocations = [...part.invocations, ...assignedCode.map((word) => [word])];
  return { part: { ...part, invocations }, nested, toWalk };
}

/** Where a command's text ends: with the words the grammar dropped before its first redirection. */
function textEnd(node: SyntaxNode, source: string, parent: ParentNode | null): number {
  const next = parent?.type === 'redirected_statement' ? node.nextSibling : null;
  if (!next || next.startIndex <= node.endIndex) return node.endIndex;
  return node.endIndex + source.slice(node.endIndex, next.startIndex).trimEnd().length;
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
  /** The assignments among `assignments` that name a command the program runs (code-variables.ts). */
  commandVariables: readonly AssignedVariable[] = [],
): { part: CommandPart; nested: readonly string[] } {
  const unwrapped = unwrap(words);
  const unknown = words.find((word) => word.value === null);
  const notSimple =
    assignments.length > 0
      ? `sets ${assignments.join(', ')} for the command (a variable can change how a command is found or what it does)`
      : unknown
        ? `\`${unknown.text}\` is not a literal word (an expansion decides it)`
        : unwrapped.runsOther;
  // unwrap's lists are its own (made for this call): added to only for a shell reading its input.
  let nested = unwrapped.nested;
  let extra = unwrapped.extra;
  if (unknown) {
    // `${x@P}` expands x as a prompt, running the `$(…)` in its value: any command; arithmetic
    // on a variable (`$((x))`, `${a[x]}`) runs what its value holds: code no rule can rule out.
    for (const word of words) {
      const code = word.value === null ? codeInText(word.text) : null;
      if (code !== null) extra = [...extra, [code]];
    }
  }
  for (const { name, value } of commandVariables) {
    const line = variableCommandLine(name, value);
    if (line === null) extra = [...extra, [UNKNOWN_WORD]];
    else if (line !== '') nested = [...nested, line];
  }
  if (unwrapped.readsInput) {
    // `bash <<'EOF' … EOF`, `sh <<< 'cmd'`: the text is parsed in turn; from a pipe it is unknown.
    const given = input();
    if (given === null) extra = [...extra, [UNKNOWN_WORD]];
    else if (given !== FILE_INPUT) nested = [...nested, given];
  }
  return {
    part: {
      text,
      notSimple,
      // Simple and wrapped (`timeout 5 npm test`): only wrappers that change no more than timing
      // were removed, and the literal is what they run.
      literal: notSimple === null ? literalOf(text, unwrapped.stages[unwrapped.stages.length - 1]!) : null,
      invocations: extra.length === 0 ? unwrapped.stages : [...unwrapped.stages, ...extra],
    },
    nested,
  };
}

/** `${x@P}`: a prompt expansion of a variable's value, which runs the command substitutions in it. */
const PROMPT_EXPANSION = /@P\}/;

/**
 * The command a text runs where none is written: any command for a prompt expansion (`${x@P}`),
 * code no rule can rule out for arithmetic on a variable; null for neither.
 */
function codeInText(text: string): ShellWord | null {
  if (!text.includes('$') && !text.includes('[')) return null;
  if (PROMPT_EXPANSION.test(text)) return UNKNOWN_WORD;
  return hasArithmeticOnVariables(text) ? CODE_WORD : null;
}

/**
 * The literal form, as the part's own text when the two are the same (most simple parts): the rules
 * compare them for every rule they try (`part.literal !== part.text`), and two equal strings that are
 * different objects are compared character by character (in V8's runtime, for the concatenation the
 * literal form is built by), one identical object at a glance.
 */
function literalOf(text: string, words: readonly ShellWord[]): string {
  const literal = literalForm(words);
  return literal === text ? text : literal;
}

/** A simple command's words after quote removal, each written back as one word, joined by spaces. */
function literalForm(words: readonly ShellWord[]): string {
  let literal = '';
  for (let i = 0; i < words.length; i++) {
    const word = quoteWord(words[i]!.value ?? '');
    literal = i === 0 ? word : `${literal} ${word}`;
  }
  return literal;
}

/** `export BASH_ENV=f`, `PS4='$(…)'`: a statement that sets a variable whose value is code run later. */
function setsCodeVariableHere(type: string, text: string): boolean {
  return (
    (type === 'declaration_command' || type === 'variable_assignment' || type === 'variable_assignments') &&
    setsCodeVariable(text)
  );
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
  if (unknown === null) return { text, notSimple: null, literal: text, invocations: [] };
  // An unquoted heredoc or a target with `${x@P}` or `$((x))` runs code as it is expanded.
  const code = codeInText(text);
  return {
    text,
    notSimple: `\`${unknown}\` is not literal (an expansion decides it)`,
    literal: null,
    invocations: code === null ? [] : [[code]],
  };
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
  // `y=${x@P}`, `: ${x@P}` outside a command's words: the prompt expansion runs any command.
  const prompt = PROMPT_EXPANSION.test(text);
  // `shown` is also the text judged for arithmetic on variables (a loop's head, not its body).
  const part = (notSimple: string, shown = text): CommandPart => ({
    text: shown,
    notSimple,
    literal: null,
    invocations: prompt
      ? [[UNKNOWN_WORD]]
      : statementArithmetic(type, shown) || setsCodeVariableHere(type, text)
        ? [[CODE_WORD]]
        : [],
  });
  switch (type) {
    case 'declaration_command':
    case 'unset_command':
      return part('changes shell variables for the commands after it');
    case 'test_command':
      return part('a test can evaluate variables as arithmetic');
    case 'function_definition': {
      // Its body's commands and expansions are parts of their own.
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
      // `${x@P}`, `${a[x]}`, `${s:x}`, `${!x}` (and the other operators, as before) outside a command.
      return inPart || (!/@[PEAKQaUuLk]\}$|\[/.test(text) && !statementArithmetic(type, text))
        ? null
        : part('an expansion that can run code');
    default:
      return null;
  }
}
