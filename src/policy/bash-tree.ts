import type { Language, Parser, Tree } from 'web-tree-sitter';

/**
 * A syntax tree of tree-sitter-bash read straight from web-tree-sitter's WebAssembly binding.
 *
 * Why not web-tree-sitter's own Node objects: each of their reads (a type, an end, a child) writes
 * the node into the binding's transfer buffer through five generic `setValue` calls, and each child
 * is a new object with six fields and a position object. The policy reads about 80 such facts per
 * command, at 60-250 ns each: more than a third of a new command's decision (bench, policy, loop
 * row). Here a node is five integers written straight into the buffer's Int32Array view, and the
 * same `*_wasm` functions of the binding answer: 20-40 ns a read, and a node's type and end are read
 * once. The answers are the binding's own, so the tree is exactly web-tree-sitter's: bash-tree.test.ts
 * walks both over hostile commands and compares every read.
 *
 * This leans on the binding's calling convention (a node as five i32 at the transfer buffer; lists
 * as a count and a malloc'd address), which is private to web-tree-sitter: the version is pinned
 * exactly (package.json), and bindingOf refuses a module that lacks a function it calls.
 */

/** The node as the parser's callers see it: the subset of web-tree-sitter's Node the policy reads. */
export interface SyntaxNode {
  /** Unique within its tree. */
  readonly id: number;
  /** In UTF-16 code units of the parsed text (the binding converts tree-sitter's byte offsets). */
  readonly startIndex: number;
  readonly endIndex: number;
  readonly type: string;
  readonly text: string;
  readonly namedChildCount: number;
  /** Every child, named or not. */
  readonly children: readonly (SyntaxNode | null)[];
  readonly nextSibling: SyntaxNode | null;
  readonly parent: SyntaxNode | null;
  namedChild(index: number): SyntaxNode | null;
  childForFieldName(field: string): SyntaxNode | null;
  childrenForFieldName(field: string): readonly (SyntaxNode | null)[];
}

/** The binding's functions the reader calls, and its memory (the view is replaced when memory grows). */
export interface Binding {
  readonly HEAP32: Int32Array;
  /** What the parser reads its input through (the binding calls it from WebAssembly); null between parses. */
  currentParseCallback: ((index: number) => string) | null;
  _ts_init(): number;
  _ts_parser_parse_wasm(
    parser: number,
    inputBuffer: number,
    oldTree: number,
    ranges: number,
    rangeCount: number,
  ): number;
  _ts_tree_delete(tree: number): void;
  _free(address: number): void;
  _ts_tree_root_node_wasm(tree: number): void;
  _ts_node_symbol_wasm(tree: number): number;
  _ts_node_end_index_wasm(tree: number): number;
  _ts_node_has_error_wasm(tree: number): number;
  _ts_node_named_child_count_wasm(tree: number): number;
  _ts_node_named_child_wasm(tree: number, index: number): void;
  _ts_node_children_wasm(tree: number): void;
  _ts_node_child_by_field_id_wasm(tree: number, field: number): void;
  _ts_node_children_by_field_id_wasm(tree: number, field: number): void;
  _ts_node_next_sibling_wasm(tree: number): void;
  _ts_node_parent_wasm(tree: number): void;
}

const BINDING_FUNCTIONS: readonly (keyof Binding)[] = [
  '_ts_init',
  '_ts_parser_parse_wasm',
  '_ts_tree_delete',
  '_free',
  '_ts_tree_root_node_wasm',
  '_ts_node_symbol_wasm',
  '_ts_node_end_index_wasm',
  '_ts_node_has_error_wasm',
  '_ts_node_named_child_count_wasm',
  '_ts_node_named_child_wasm',
  '_ts_node_children_wasm',
  '_ts_node_child_by_field_id_wasm',
  '_ts_node_children_by_field_id_wasm',
  '_ts_node_next_sibling_wasm',
  '_ts_node_parent_wasm',
];

/**
 * The binding web-tree-sitter made of the object given to `Parser.init` (emscripten fills the
 * module object it is given); an error if it is not one.
 */
export function bindingOf(module: object): Binding {
  const record = module as Record<string, unknown>;
  const missing = BINDING_FUNCTIONS.filter((name) => typeof record[name] !== 'function');
  if (missing.length > 0 || !(record.HEAP32 instanceof Int32Array)) {
    throw new Error(`web-tree-sitter's binding lacks ${missing.join(', ') || 'HEAP32'}`);
  }
  return module as Binding;
}

/**
 * A parser whose trees are read through the binding. It parses through the binding too: web-tree-sitter's
 * `Parser.parse` wraps each tree in a Tree object registered with a FinalizationRegistry (and taken off
 * it at `delete`), and turns its logger off at every call; a decision never sees that Tree, and the
 * wrapping was about a twentieth of a new command's decision (bench, policy, case row). The call is the
 * one web-tree-sitter makes for a string: the text read from index 0, no old tree, no ranges.
 */
export class BashParser {
  /** The transfer buffer, as an index into HEAP32. */
  private readonly transfer: number;
  /** The parser's address and its input buffer's (web-tree-sitter's `parser[0]` and `parser[1]`). */
  private readonly address: number;
  private readonly inputBuffer: number;
  private readonly names: GrammarNames;

  constructor(
    /** web-tree-sitter's parser (the tests parse with it too, to compare its Node objects). */
    readonly webParser: Parser,
    language: Language,
    private readonly binding: Binding,
  ) {
    // ts_init only writes the language versions there and returns the buffer's address.
    this.transfer = binding._ts_init() >> 2;
    const handles = webParser as unknown as { readonly 0: unknown; readonly 1: unknown };
    if (
      typeof handles[0] !== 'number' ||
      handles[0] <= 0 ||
      typeof handles[1] !== 'number' ||
      handles[1] <= 0
    )
      throw new Error('web-tree-sitter parser has no address');
    this.address = handles[0];
    this.inputBuffer = handles[1];
    this.names = grammarNames(language);
  }

  /** The tree of `source`, or null when the parser gives none. Call `delete` when done. */
  parse(source: string): BashTree | null {
    const binding = this.binding;
    binding.currentParseCallback = (index) => source.slice(index);
    let tree: number;
    try {
      tree = binding._ts_parser_parse_wasm(this.address, this.inputBuffer, 0, 0, 0);
    } finally {
      binding.currentParseCallback = null;
    }
    if (!tree) return null;
    return new BashTree(tree, source, binding, this.transfer, this.names, true);
  }

  /** The same reader over a tree web-tree-sitter made (the tests compare its Node objects); not deleted here. */
  readWebTree(webTree: Tree, source: string): BashTree {
    const address = (webTree as unknown as { readonly 0: unknown })[0];
    if (typeof address !== 'number' || address <= 0) throw new Error('web-tree-sitter tree has no address');
    return new BashTree(address, source, this.binding, this.transfer, this.names, false);
  }
}

/** The grammar's type names by symbol, and its field ids by name (looked up once per parser, not per read). */
interface GrammarNames {
  readonly types: readonly string[];
  readonly fieldIds: ReadonlyMap<string, number>;
}

function grammarNames(language: Language): GrammarNames {
  const fieldIds = new Map<string, number>();
  language.fields.forEach((field, id) => {
    if (field !== null && !fieldIds.has(field)) fieldIds.set(field, id);
  });
  return { types: language.types, fieldIds };
}

/** One parse: its nodes read the binding until `delete`. */
export class BashTree {
  readonly rootNode: SyntaxNode;

  constructor(
    /** The tree's address in WebAssembly memory: every binding call names it. */
    readonly address: number,
    readonly source: string,
    readonly binding: Binding,
    /** The transfer buffer, as an index into HEAP32. */
    readonly transfer: number,
    private readonly names: GrammarNames,
    /** Whether `delete` frees the tree (not one web-tree-sitter's Tree object owns). */
    private readonly owned: boolean,
  ) {
    binding._ts_tree_root_node_wasm(address);
    const root = this.nodeAt(transfer);
    if (!root) throw new Error('web-tree-sitter tree has no root');
    this.rootNode = root;
  }

  get hasError(): boolean {
    (this.rootNode as BashNode).load();
    return this.binding._ts_node_has_error_wasm(this.address) === 1;
  }

  delete(): void {
    if (this.owned) this.binding._ts_tree_delete(this.address);
  }

  /** As web-tree-sitter names a type: the grammar's name, or ERROR for the error symbol. */
  typeName(symbol: number): string {
    return this.names.types[symbol] || 'ERROR';
  }

  /** As web-tree-sitter finds a field's id (its first index in the grammar's list); -1 for none. */
  fieldId(field: string): number {
    return this.names.fieldIds.get(field) ?? -1;
  }

  /** The node written at `index` of HEAP32 (the transfer buffer or a returned list), null for none. */
  nodeAt(index: number): BashNode | null {
    const heap = this.binding.HEAP32;
    const id = heap[index] ?? 0;
    if (id === 0) return null;
    return new BashNode(
      this,
      id,
      heap[index + 1] ?? 0,
      heap[index + 2] ?? 0,
      heap[index + 3] ?? 0,
      heap[index + 4] ?? 0,
    );
  }

  /** The nodes of a list the last call left (count, then address, in the transfer buffer); frees it. */
  takeList(): (SyntaxNode | null)[] {
    const heap = this.binding.HEAP32;
    const count = heap[this.transfer] ?? 0;
    const address = heap[this.transfer + 1] ?? 0;
    const nodes: (SyntaxNode | null)[] = [];
    if (count <= 0) return nodes;
    for (let i = 0; i < count; i++) nodes.push(this.nodeAt((address >> 2) + i * NODE_INTS));
    this.binding._free(address);
    return nodes;
  }
}

/**
 * A node in the binding's transfer format: id, start (UTF-16), start row, start column, and the word
 * web-tree-sitter keeps as `node[0]` (tree-sitter's last context word: the node's alias symbol).
 */
const NODE_INTS = 5;

class BashNode implements SyntaxNode {
  /** Read once each (a read is a call into WebAssembly); -1 until read. */
  private symbol = -1;
  private end = -1;

  constructor(
    private readonly tree: BashTree,
    readonly id: number,
    readonly startIndex: number,
    private readonly row: number,
    private readonly column: number,
    private readonly alias: number,
  ) {}

  /** Writes the node where the binding reads it; returns the tree's address for the call. */
  load(): number {
    const heap = this.tree.binding.HEAP32;
    const at = this.tree.transfer;
    heap[at] = this.id;
    heap[at + 1] = this.startIndex;
    heap[at + 2] = this.row;
    heap[at + 3] = this.column;
    heap[at + 4] = this.alias;
    return this.tree.address;
  }

  get type(): string {
    if (this.symbol < 0) this.symbol = this.tree.binding._ts_node_symbol_wasm(this.load());
    return this.tree.typeName(this.symbol);
  }

  get endIndex(): number {
    if (this.end < 0) this.end = this.tree.binding._ts_node_end_index_wasm(this.load());
    return this.end;
  }

  get text(): string {
    return this.tree.source.slice(this.startIndex, this.endIndex);
  }

  get namedChildCount(): number {
    return this.tree.binding._ts_node_named_child_count_wasm(this.load());
  }

  namedChild(index: number): SyntaxNode | null {
    this.tree.binding._ts_node_named_child_wasm(this.load(), index);
    return this.tree.nodeAt(this.tree.transfer);
  }

  get children(): (SyntaxNode | null)[] {
    this.tree.binding._ts_node_children_wasm(this.load());
    return this.tree.takeList();
  }

  childForFieldName(field: string): SyntaxNode | null {
    const id = this.tree.fieldId(field);
    if (id === -1) return null;
    this.tree.binding._ts_node_child_by_field_id_wasm(this.load(), id);
    return this.tree.nodeAt(this.tree.transfer);
  }

  childrenForFieldName(field: string): (SyntaxNode | null)[] {
    const id = this.tree.fieldId(field);
    if (id === -1 || id === 0) return [];
    this.tree.binding._ts_node_children_by_field_id_wasm(this.load(), id);
    return this.tree.takeList();
  }

  get nextSibling(): SyntaxNode | null {
    this.tree.binding._ts_node_next_sibling_wasm(this.load());
    return this.tree.nodeAt(this.tree.transfer);
  }

  get parent(): SyntaxNode | null {
    this.tree.binding._ts_node_parent_wasm(this.load());
    return this.tree.nodeAt(this.tree.transfer);
  }
}
