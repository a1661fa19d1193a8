import type { UserInput } from '../steer-queue.js';

/**
 * Agent flows (Kimi CLI's KLIP-10): a flowchart whose nodes are prompts. The run starts at the node
 * labelled BEGIN and ends at the one labelled END; every other node is a turn. A node with several
 * outgoing edges is a decision: the model picks the edge by its label with `<choice>…</choice>`.
 */

export type FlowNodeKind = 'begin' | 'end' | 'task' | 'decision';

export interface FlowNode {
  id: string;
  /** The prompt of the node (the Ralph loop's first node carries the user's input as it came). */
  label: UserInput;
  kind: FlowNodeKind;
}

export interface FlowEdge {
  from: string;
  to: string;
  /** Required, and unique among its siblings, on the edges of a decision. */
  label: string | null;
}

export interface Flow {
  nodes: ReadonlyMap<string, FlowNode>;
  outgoing: ReadonlyMap<string, readonly FlowEdge[]>;
  beginId: string;
  endId: string;
}

/** A flowchart that cannot be read (with the line) or makes no flow. */
export class FlowError extends Error {
  override name = 'FlowError';
}

/** What a parser found: node labels by id (in order of appearance) and edges. */
export interface FlowGraph {
  labels: Map<string, string>;
  edges: FlowEdge[];
}

/**
 * Checks a parsed graph and gives it its roles: exactly one BEGIN and one END (by label, any case),
 * END reachable from BEGIN, and labelled, distinct edges out of every decision. Nodes only named by
 * an edge get their id as label.
 */
export function buildFlow(graph: FlowGraph): Flow {
  const labels = new Map(graph.labels);
  for (const edge of graph.edges) {
    if (!labels.has(edge.from)) labels.set(edge.from, edge.from);
    if (!labels.has(edge.to)) labels.set(edge.to, edge.to);
  }
  const outgoing = new Map<string, FlowEdge[]>();
  for (const edge of graph.edges) outgoing.set(edge.from, [...(outgoing.get(edge.from) ?? []), edge]);
  const byLabel = (word: string) => [...labels].filter(([, label]) => label.trim().toUpperCase() === word);
  const begins = byLabel('BEGIN');
  const ends = byLabel('END');
  if (begins.length !== 1)
    throw new FlowError(`A flow needs exactly one BEGIN node (found ${begins.length}).`);
  if (ends.length !== 1) throw new FlowError(`A flow needs exactly one END node (found ${ends.length}).`);
  const beginId = begins[0]![0];
  const endId = ends[0]![0];
  const nodes = new Map<string, FlowNode>();
  for (const [id, label] of labels) {
    const edges = outgoing.get(id) ?? [];
    const kind = id === beginId ? 'begin' : id === endId ? 'end' : edges.length > 1 ? 'decision' : 'task';
    if (kind === 'decision') {
      const names = edges.map((edge) => edge.label?.trim() ?? '');
      if (names.some((name) => name === '')) {
        throw new FlowError(`Every edge out of the decision "${label}" needs a label.`);
      }
      if (new Set(names).size !== names.length) {
        throw new FlowError(`The edges out of the decision "${label}" need different labels.`);
      }
    }
    nodes.set(id, { id, label, kind });
  }
  const seen = new Set([beginId]);
  const queue = [beginId];
  for (let id = queue.shift(); id !== undefined; id = queue.shift()) {
    for (const edge of outgoing.get(id) ?? []) {
      if (!seen.has(edge.to)) {
        seen.add(edge.to);
        queue.push(edge.to);
      }
    }
  }
  if (!seen.has(endId)) throw new FlowError('END cannot be reached from BEGIN.');
  if ((outgoing.get(beginId) ?? []).length !== 1) throw new FlowError('BEGIN needs exactly one edge out.');
  return { nodes, outgoing, beginId, endId };
}
