import { FlowError, type FlowGraph } from './flow.js';

/** D2 keywords that set a property of a node rather than name one (`a.shape: diamond`). */
const PROPERTY_KEYWORDS = new Set([
  'shape',
  'style',
  'icon',
  'near',
  'width',
  'height',
  'tooltip',
  'link',
  'class',
  'direction',
  'constraint',
  'grid-rows',
  'grid-columns',
]);

const ID = /^[A-Za-z0-9_][\w./-]*$/;

/**
 * The D2 subset flows are written in: `#` comments, nodes `ID: label` (the id is the label when
 * there is none; `ID.label: text` sets it too), edges `A -> B` and `A -> B: label`, chained
 * (`A -> B -> C: label` labels the last edge). Property lines (`a.shape: diamond`) and `{ … }`
 * blocks are skipped.
 */
export function parseD2Flow(source: string): FlowGraph {
  const graph: FlowGraph = { labels: new Map(), edges: [] };
  let depth = 0;
  source.split(/\r?\n/).forEach((raw, index) => {
    let line = raw.replace(/(^|\s)#.*$/, '').trim();
    const insideBlock = depth > 0;
    depth += count(line, '{') - count(line, '}');
    if (insideBlock || !line) return;
    line = line.replace(/\{.*$/, '').trim();
    if (!line) return;
    try {
      parseStatement(line, graph);
    } catch (error) {
      throw new FlowError(`D2 line ${index + 1}: ${(error as Error).message}`);
    }
  });
  return graph;
}

function parseStatement(line: string, graph: FlowGraph): void {
  if (line.includes('->')) {
    const parts = line.split('->').map((part) => part.trim());
    const last = parts.length - 1;
    const colon = parts[last]!.indexOf(':');
    const label = colon >= 0 ? unquote(parts[last]!.slice(colon + 1).trim()) || null : null;
    if (colon >= 0) parts[last] = parts[last]!.slice(0, colon).trim();
    for (const id of parts) if (!ID.test(id)) throw new Error(`"${id}" is not a node id`);
    for (let i = 0; i < last; i++) {
      graph.edges.push({ from: parts[i]!, to: parts[i + 1]!, label: i === last - 1 ? label : null });
    }
    return;
  }
  const colon = line.indexOf(':');
  const key = (colon >= 0 ? line.slice(0, colon) : line).trim();
  const value = colon >= 0 ? unquote(line.slice(colon + 1).trim()) : '';
  const path = key.split('.');
  if (path.slice(1).some((segment) => PROPERTY_KEYWORDS.has(segment))) return;
  if (path.length > 1 && path.at(-1) === 'label') {
    graph.labels.set(path.slice(0, -1).join('.'), value);
    return;
  }
  if (!ID.test(key)) throw new Error(`"${key}" is not a node id`);
  graph.labels.set(key, value || graph.labels.get(key) || key);
}

function count(text: string, char: string): number {
  return text.split(char).length - 1;
}

function unquote(text: string): string {
  return text.length >= 2 && /^(["']).*\1$/.test(text) ? text.slice(1, -1) : text;
}
