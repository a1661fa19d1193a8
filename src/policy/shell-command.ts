import type { Parser, Node as SyntaxNode } from 'web-tree-sitter';

/** A command line split by a real shell parser (tree-sitter-bash) into what it would run. */
export interface ParsedCommand {
  /**
   * Every simple command, wherever it sits (after `&&`, `;`, `|`, inside `$(…)`, backticks,
   * subshells, loops), from its name to its last argument (leading `VAR=x` assignments left out),
   * and every redirection as `> target`.
   */
  readonly parts: readonly string[];
  /** The parser found a syntax error: the parts may not be all the command does. */
  readonly incomplete: boolean;
}

/** Node types that run something: a simple command and the shell's own statement forms. */
const COMMAND_NODES = new Set(['command', 'declaration_command', 'unset_command', 'test_command']);
const REDIRECT_NODES = new Set(['file_redirect', 'heredoc_redirect', 'herestring_redirect']);

let loading: Promise<Parser> | undefined;

/** The parser and grammar (WebAssembly) load on first use, so start-up never pays for them. */
function bashParser(): Promise<Parser> {
  loading ??= import('./bash-parser.js').then(({ loadBashParser }) => loadBashParser());
  loading.catch(() => {
    loading = undefined;
  });
  return loading;
}

export async function parseShellCommand(command: string): Promise<ParsedCommand> {
  let parser: Parser;
  try {
    parser = await bashParser();
  } catch {
    // Without the parser the command is one opaque part: deny rules still match it, allow rules cannot.
    return { parts: [command.trim()], incomplete: true };
  }
  const tree = parser.parse(command);
  if (!tree) return { parts: [command.trim()], incomplete: true };
  try {
    const parts: string[] = [];
    collect(tree.rootNode, command, parts);
    return { parts: parts.length > 0 ? parts : [command.trim()], incomplete: tree.rootNode.hasError };
  } finally {
    tree.delete();
  }
}

function collect(node: SyntaxNode, source: string, parts: string[]): void {
  if (COMMAND_NODES.has(node.type)) {
    const first = node.namedChildren.find((child) => child !== null && child.type !== 'variable_assignment');
    const start = first?.startIndex ?? node.startIndex;
    const text = source.slice(start, node.endIndex).trim();
    if (text) parts.push(text);
  } else if (REDIRECT_NODES.has(node.type)) {
    parts.push(source.slice(node.startIndex, node.endIndex).trim());
  }
  for (const child of node.namedChildren) if (child) collect(child, source, parts);
}
