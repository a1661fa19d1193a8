import type { BashParser, SyntaxNode } from './bash-tree.js';
import type { CommandPart } from './command-part.js';
import { parsePlainCommandLine } from './plain-command-line.js';
import { parsePlainHeredocs } from './plain-heredoc.js';
import { parsePlainLoop } from './plain-loop.js';
import { RecentParses } from './recent-parses.js';
import {
  analyseCommandNode,
  analyseConstruct,
  analyseRedirect,
  assignedCommandLines,
  type ParentNode,
} from './shell-part-analysis.js';
import { namedChildrenOf, UNKNOWN_WORD } from './shell-words.js';
import { MAX_NESTING } from './shell-wrappers.js';

/** A command line split by a real shell parser (tree-sitter-bash) into what it would run. */
export interface ParsedCommand {
  /**
   * Every part's text, wherever it sits (after `&&`, `;`, `|`, inside `$(…)`, backticks, subshells,
   * loops, the string of `bash -c`), and every redirection as `> target`.
   */
  readonly parts: readonly string[];
  /** The same parts with what the policy worked out about each. */
  readonly analysed: readonly CommandPart[];
  /** The parser found a syntax error: the parts may not be all the command does. */
  readonly incomplete: boolean;
  /**
   * Words a loop hands to its body (`for f in *.env; do cat "$f"; done`: `*.env`), as written. They
   * run nothing, so they are no part; they name files the body reads, so the secret check reads them.
   */
  readonly loopWords: readonly string[];
}

export type { CommandPart } from './command-part.js';

let loading: Promise<BashParser> | undefined;
/** The parser once loaded: a new command is parsed with no wait on the loading promise. */
let loaded: BashParser | undefined;

/** The parser and grammar (WebAssembly) load on first use, so start-up never pays for them. */
function bashParser(): Promise<BashParser> {
  loading ??= import('./bash-parser.js')
    .then(({ loadBashParser }) => loadBashParser())
    .then((parser) => {
      loaded = parser;
      return parser;
    });
  loading.catch(() => {
    loading = undefined;
  });
  return loading;
}

/** What is known of a command the parser could not read: nothing allows it, deny rules see its text. */
export function opaqueCommand(command: string): ParsedCommand {
  const text = command.trim();
  const part: CommandPart = {
    text,
    notSimple: 'the shell parser is not available',
    literal: null,
    invocations: [[UNKNOWN_WORD]],
  };
  return { parts: [text], analysed: [part], incomplete: true, loopWords: [] };
}

/**
 * Commands tree-sitter parsed before, by their exact text (the same command is decided more than
 * once: a retry, a question asked again, a loop). The parse depends on the text alone; results are
 * frozen, so no decision can change what the next one reads.
 *
 * A plain line is not kept: splitting it again costs a few µs, about what keeping it does (a parse
 * kept past V8's young generation is copied and promoted), and a decision that splits every plain
 * line runs the same code for a command seen before as for a new one. With plain lines kept, a
 * session of repeated commands ran only the cache's hit path; V8 optimised for that and threw the
 * code away at the first new command (bench, loaded machine, CPU per new plain line: 107 µs with
 * them kept, 44 µs without; the same repeated plain line: 12 → 24 µs).
 */
const parsed = new RecentParses<ParsedCommand>();
/** Longer commands are parsed every time: the cache holds no more than 2×GENERATION of these sizes. */
const MAX_PARSED_TEXT = 16 * 1024;

export async function parseShellCommand(command: string): Promise<ParsedCommand> {
  return parseShellCommandNow(command) ?? remembered(command, await treeSitterParse(command));
}

/**
 * The same parse when it needs no wait: undefined only when tree-sitter must read the command and
 * its parser is still to load (parseShellCommand waits for it). A decision takes this path for
 * every command once the parser is loaded: no promise made and no microtask waited on per parse.
 */
export function parseShellCommandNow(command: string): ParsedCommand | undefined {
  const known = parsed.get(command);
  if (known) return known;
  // Lines with quoted heredocs (`git commit -F - <<'EOF'`), split without tree-sitter and not kept
  // either. Only a command of several lines can hold one; a plain line or loop is one line.
  if (command.includes('\n')) {
    const heredocs = parsePlainHeredocs(command);
    if (heredocs) return splitByHand(heredocs.parts, heredocs.loopWords);
  }
  // A one-line loop (`for`, `while`, `until`, perhaps between plain lines) is split without
  // tree-sitter too, and not kept, as a plain line. Tried first: a line that is no loop is told
  // by one regular expression, while a loop costs a plain line's whole split to be refused there.
  const loop = parsePlainLoop(command);
  if (loop) return splitByHand(loop.parts, loop.loopWords);
  const plain = parsePlainCommandLine(command);
  if (plain) return splitByHand(plain, []);
  return loaded ? remembered(command, parseWith(loaded, command)) : undefined;
}

/** A tree-sitter parse, kept by its text; without the parser or a tree (null), one opaque part. */
function remembered(command: string, result: ParsedCommand | null): ParsedCommand {
  // Deny rules still match an opaque part; allow rules cannot.
  if (result === null) return opaqueCommand(command);
  if (command.length <= MAX_PARSED_TEXT) parsed.remember(command, result);
  return result;
}

/** The parse by tree-sitter alone, never remembered (the plain-line table test compares with it). */
export async function parseWithTreeSitter(command: string): Promise<ParsedCommand> {
  return (await treeSitterParse(command)) ?? opaqueCommand(command);
}

/** Null when the parser is not available or gives no tree. */
async function treeSitterParse(command: string): Promise<ParsedCommand | null> {
  let parser: BashParser;
  try {
    parser = await bashParser();
  } catch {
    return null;
  }
  return parseWith(parser, command);
}

/** Null when the parser gives no tree. */
function parseWith(parser: BashParser, command: string): ParsedCommand | null {
  const found: CommandPart[] = [];
  const loopWords: string[] = [];
  const incomplete = parseInto(parser, command, 0, found, loopWords);
  if (incomplete === null) return null;
  const analysed = found.length > 0 ? found : opaqueCommand(command).analysed;
  return frozen({ parts: analysed.map((part) => part.text), analysed, incomplete, loopWords });
}

/** A command split without tree-sitter (a plain line, loop or heredoc): complete, by construction. */
function splitByHand(analysed: readonly CommandPart[], loopWords: readonly string[]): ParsedCommand {
  return frozen({ parts: analysed.map((part) => part.text), analysed, incomplete: false, loopWords });
}

function frozen(command: ParsedCommand): ParsedCommand {
  for (const part of command.analysed) {
    for (const words of part.invocations) {
      for (const word of words) Object.freeze(word);
      Object.freeze(words);
    }
    Object.freeze(part.invocations);
    Object.freeze(part);
  }
  Object.freeze(command.analysed);
  Object.freeze(command.parts);
  Object.freeze(command.loopWords);
  return Object.freeze(command);
}

/** Parses one command line (the whole, or a `bash -c` string) into `found`; whether it had a syntax error. */
function parseInto(
  parser: BashParser,
  command: string,
  depth: number,
  found: CommandPart[],
  loopWords: string[],
): boolean | null {
  const tree = parser.parse(command);
  if (!tree) return null;
  try {
    let incomplete = tree.hasError;
    const nested = (code: string): void => {
      if (depth + 1 >= MAX_NESTING) {
        found.push({
          text: code,
          notSimple: 'nested too deep',
          literal: null,
          invocations: [[UNKNOWN_WORD]],
        });
        return;
      }
      const inner = parseInto(parser, code, depth + 1, found, loopWords);
      if (inner !== false) {
        // A string the parser cannot read whole may run anything: no deny rule can rule it out.
        found.push({
          text: code,
          notSimple: 'a command string with a syntax error',
          literal: null,
          invocations: [[UNKNOWN_WORD]],
        });
        incomplete = true;
      }
    };
    let tooDeep = false;
    const deeper = (node: SyntaxNode): void => {
      // Past the cap the rest is unread: one part for it, nothing allows it, deny rules see its text.
      incomplete = true;
      if (tooDeep) return;
      tooDeep = true;
      // Its start only: the parts around it hold its whole text (the secret check reads them), and
      // an approval lists it.
      const text = command.slice(node.startIndex, Math.min(node.endIndex, node.startIndex + DEEP_TEXT_SHOWN));
      found.push({
        text: node.endIndex - node.startIndex > DEEP_TEXT_SHOWN ? `${text.trim()}…` : text.trim(),
        notSimple: `nested deeper than ${MAX_TREE_DEPTH} levels (not read further)`,
        literal: null,
        invocations: [[UNKNOWN_WORD]],
      });
    };
    collect(tree.rootNode, command, { found, nested, inPart: false, loopWords, deeper }, null, 0);
    return incomplete;
  } finally {
    tree.delete();
  }
}

interface Walk {
  readonly found: CommandPart[];
  /** A command line the shell parses in turn (`bash -c STRING`). */
  readonly nested: (code: string) => void;
  /** Inside a node that is already a part: its expansions are judged with it. */
  readonly inPart: boolean;
  /** The words of `for x in …` lists (see ParsedCommand.loopWords). */
  readonly loopWords: string[];
  /** A node past MAX_TREE_DEPTH: the command is not read further there. */
  readonly deeper: (node: SyntaxNode) => void;
}

/**
 * How deep the walk goes into the tree (`$($($(…)))`, `((((…))))`): each level is a JavaScript call,
 * and thousands of them overflow the stack. Real commands stay far below; deeper input is not read
 * (a part nothing allows, the command incomplete). The links of an `a && b && c` chain, which the
 * grammar nests one in the next, are walked in a loop and count as one level.
 */
export const MAX_TREE_DEPTH = 200;
/** How much of the part past MAX_TREE_DEPTH its text holds. */
const DEEP_TEXT_SHOWN = 120;

/** Statements that set variables for the commands after them (`export A=1`, `A=1` alone). */
const SETS_VARIABLES = new Set(['declaration_command', 'variable_assignment', 'variable_assignments']);

const REDIRECT_NODES = new Set(['file_redirect', 'heredoc_redirect', 'herestring_redirect']);

/**
 * Node types that never have children: in tree-sitter-bash's node-types.json they have neither
 * fields nor children (shell-command.test.ts holds this list to it). Nothing is below them to
 * collect, so their children are not asked for (each ask crosses into WebAssembly and back).
 */
export const LEAF_NODES: ReadonlySet<string> = new Set([
  'ansi_c_string',
  'comment',
  'extglob_pattern',
  'file_descriptor',
  'heredoc_content',
  'heredoc_end',
  'heredoc_start',
  'raw_string',
  'regex',
  'special_variable_name',
  'string_content',
  'test_operator',
  'variable_name',
  'word',
]);

function collect(
  node: SyntaxNode,
  source: string,
  walk: Walk,
  parent: ParentNode | null,
  depth: number,
): void {
  // Each read of a node crosses into WebAssembly: its type and children are read once.
  const type = node.type;
  if (LEAF_NODES.has(type)) return;
  if (depth > MAX_TREE_DEPTH) {
    walk.deeper(node);
    return;
  }
  if (type === 'list') {
    collectList(node, source, walk, depth);
    return;
  }
  const children = namedChildrenOf(node);
  let inPart = walk.inPart;
  // What is walked below: the children, but for a command only those that are no literal word (a
  // word with a literal value holds no expansion, substitution or command: nothing to collect).
  let toWalk: readonly SyntaxNode[] = children;
  if (type === 'command') {
    const analysed = analyseCommandNode(node, children, source, parent);
    walk.found.push(analysed.part);
    for (const code of analysed.nested) walk.nested(code);
    inPart = true;
    toWalk = analysed.toWalk;
  } else if (REDIRECT_NODES.has(type)) {
    const part = analyseRedirect(node, source, children);
    walk.found.push(part);
    // Its target and text are literal: no expansion or command below it to collect.
    if (part.notSimple === null) return;
    inPart = true;
  } else if (type === 'for_statement') {
    // `for x in WORDS` (and `select`): the words are the loop's; a substitution among them is
    // collected below as the part it is.
    for (const value of node.childrenForFieldName('value'))
      if (value) walk.loopWords.push(source.slice(value.startIndex, value.endIndex));
  } else {
    const part = analyseConstruct(node, type, source, walk.inPart);
    if (part) {
      inPart = true;
      if (!SETS_VARIABLES.has(type)) walk.found.push(part);
      else {
        // `export GIT_SSH_COMMAND='rm -rf x'`: the later command runs that line (code-variables.ts).
        const lines = assignedCommandLines(node, type, source);
        const unknown = lines.includes(null);
        walk.found.push(unknown ? { ...part, invocations: [...part.invocations, [UNKNOWN_WORD]] } : part);
        for (const line of lines) if (line !== null) walk.nested(line);
      }
    }
  }
  if (toWalk.length === 0) return;
  // Written out, not spread (a spread object is copied on V8's slow path).
  const inner: Walk =
    inPart === walk.inPart
      ? walk
      : {
          found: walk.found,
          nested: walk.nested,
          inPart,
          loopWords: walk.loopWords,
          deeper: walk.deeper,
        };
  const self: ParentNode = { node, type };
  // Indexed, not for-of: a new kind of command runs this walk in V8's baseline tiers for its first
  // few hundred calls, where for-of makes an iterator and a result object per step.
  for (let i = 0; i < toWalk.length; i++) collect(toWalk[i]!, source, inner, self, depth + 1);
}

/**
 * `a && b || c` is list(list(a, b), c): its left links are followed in a loop, then each command is
 * walked in the order written, with the list that holds it as its parent.
 */
function collectList(node: SyntaxNode, source: string, walk: Walk, depth: number): void {
  const links: { node: SyntaxNode; children: SyntaxNode[] }[] = [];
  let current: SyntaxNode | undefined = node;
  while (current !== undefined && current.type === 'list') {
    const children = namedChildrenOf(current);
    links.push({ node: current, children });
    current = children[0];
  }
  for (let i = links.length - 1; i >= 0; i--) {
    const { node: list, children } = links[i]!;
    const self: ParentNode = { node: list, type: 'list' };
    // The first child of every link but the innermost is the link inside it, walked already.
    for (let j = i === links.length - 1 ? 0 : 1; j < children.length; j++) {
      const child = children[j];
      if (child) collect(child, source, walk, self, depth + 1);
    }
  }
}
