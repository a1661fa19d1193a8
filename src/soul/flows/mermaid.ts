import { FlowError, type FlowGraph } from './flow.js';

/**
 * The Mermaid flowchart subset flows are written in: a `flowchart`/`graph` header, `%%` comments,
 * nodes `ID[text]`, `ID([text])`, `ID{text}` (and the other bracket shapes; the shape means
 * nothing), text in double quotes when it holds brackets, and edges `A --> B`, `A -->|label| B`,
 * `A -- label --> B`, chained and with nodes defined inline. Styling, classes and subgraphs are
 * skipped.
 */
export function parseMermaidFlow(source: string): FlowGraph {
  const graph: FlowGraph = { labels: new Map(), edges: [] };
  source.split(/\r?\n/).forEach((raw, index) => {
    const line = raw.replace(/%%.*$/, '').trim().replace(/;$/, '');
    if (!line || IGNORED.test(line)) return;
    try {
      parseStatement(line, graph);
    } catch (error) {
      throw new FlowError(`Mermaid line ${index + 1}: ${(error as Error).message}`);
    }
  });
  return graph;
}

const IGNORED = /^(flowchart|graph|classDef|class|style|linkStyle|subgraph|end|click|direction)\b/;

/** Opening and closing brackets of node shapes, longest first. */
const SHAPES: [string, string][] = [
  ['([', '])'],
  ['((', '))'],
  ['[[', ']]'],
  ['{{', '}}'],
  ['[(', ')]'],
  ['[', ']'],
  ['(', ')'],
  ['{', '}'],
  ['>', ']'],
];

/** A node id; a `-` that starts an arrow (`A-->B`) is not part of it. */
const ID = /^[A-Za-z0-9_](?:[\w.]|-(?![-.>]))*/;
/** `-->`, `---`, `==>`, `-.->` … then an optional `|label|`. */
const ARROW = /^(?:-{2,}>|-{3,}|={2,}>|={3,}|-\.+->|-\.+-)\s*(?:\|([^|]*)\|)?/;
/** `-- label -->` and its `==` / `-.` forms. */
const LABELLED_ARROW = /^(?:--|==|-\.)\s+(.+?)\s+(?:-{2,}>|-{3,}|={2,}>|={3,}|\.+->|\.+-)/;

function parseStatement(line: string, graph: FlowGraph): void {
  const cursor = { rest: line };
  let from = parseNode(cursor, graph);
  for (;;) {
    cursor.rest = cursor.rest.trimStart();
    if (!cursor.rest) return;
    const labelled = LABELLED_ARROW.exec(cursor.rest);
    const arrow = labelled ?? ARROW.exec(cursor.rest);
    if (!arrow) throw new Error(`expected an edge (-->) at "${cursor.rest.slice(0, 20)}"`);
    cursor.rest = cursor.rest.slice(arrow[0].length).trimStart();
    const label = unquote(arrow[1]?.trim() ?? '') || null;
    const to = parseNode(cursor, graph);
    graph.edges.push({ from, to, label });
    from = to;
  }
}

/** Reads `ID` with an optional shape holding its text; records the text; returns the id. */
function parseNode(cursor: { rest: string }, graph: FlowGraph): string {
  const id = ID.exec(cursor.rest)?.[0];
  if (!id) throw new Error(`expected a node id at "${cursor.rest.slice(0, 20)}"`);
  cursor.rest = cursor.rest.slice(id.length);
  const shape = SHAPES.find(([open]) => cursor.rest.startsWith(open));
  if (!shape) return id;
  const [open, close] = shape;
  let body = cursor.rest.slice(open.length);
  let text: string;
  if (body.trimStart().startsWith('"')) {
    body = body.trimStart();
    const endQuote = body.indexOf('"', 1);
    if (endQuote < 0) throw new Error(`unclosed quote in node ${id}`);
    text = body.slice(1, endQuote);
    body = body.slice(endQuote + 1).trimStart();
    if (!body.startsWith(close)) throw new Error(`expected ${close} to close node ${id}`);
    cursor.rest = body.slice(close.length);
  } else {
    const end = body.indexOf(close);
    if (end < 0) throw new Error(`expected ${close} to close node ${id}`);
    text = body.slice(0, end).trim();
    cursor.rest = body.slice(end + close.length);
  }
  graph.labels.set(id, text);
  return id;
}

function unquote(text: string): string {
  return text.length >= 2 && text.startsWith('"') && text.endsWith('"') ? text.slice(1, -1) : text;
}
