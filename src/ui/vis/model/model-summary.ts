import type { VisModel, VisSlowTool, VisSpan, VisSummary } from './vis-model.js';

const SLOWEST_TOOLS = 10;

type Counted = Omit<VisModel, 'summary' | 'slowestTools'>;

/** Totals, time by kind and the slowest tools, in O(n log n) over the spans. */
export function summarise(model: Counted): { summary: VisSummary; slowestTools: VisSlowTool[] } {
  const tokens = { input: 0, output: 0, cached: 0 };
  let retries = 0;
  let toolCalls = 0;
  for (const step of model.steps) {
    tokens.input += step.tokens.input;
    tokens.output += step.tokens.output;
    tokens.cached += step.tokens.cached;
    retries += step.retries;
    toolCalls += step.toolCalls;
  }
  const seconds = timeByKind(
    model.spans.filter((s) => s.lane === 0),
    model.start,
    model.end,
  );
  let maxContextUsage = 0;
  for (const point of model.context) maxContextUsage = Math.max(maxContextUsage, point.usage);

  const slowestTools = model.spans
    .map((span, index) => ({ span, index }))
    .filter(({ span }) => span.kind === 'tool')
    .map(({ span, index }) => ({
      name: span.label,
      seconds: (span.end ?? model.end) - span.start,
      span: index,
    }))
    .sort((a, b) => b.seconds - a.seconds)
    .slice(0, SLOWEST_TOOLS);

  return {
    summary: {
      turns: model.turns.filter((t) => t.lane === 0).length,
      steps: model.steps.filter((s) => s.lane === 0).length,
      toolCalls,
      retries,
      compactions: model.compactionTimes.length,
      dmails: model.markers.filter((m) => m.kind === 'dmail').length,
      approvals: model.spans.filter((s) => s.kind === 'approval' && s.label.startsWith('approval')).length,
      subagents: model.lanes.length - 1,
      tokens,
      seconds,
      maxContextUsage,
    },
    slowestTools,
  };
}

/** What an instant of the main lane counts as, most telling first. */
const KINDS = ['approvals', 'questions', 'tools', 'model', 'otherInTurns'] as const;
type Kind = (typeof KINDS)[number];

function kindOf(span: VisSpan): Kind | null {
  switch (span.kind) {
    case 'approval':
      return span.label.startsWith('approval') ? 'approvals' : 'questions';
    case 'tool':
      return 'tools';
    case 'model':
      return 'model';
    case 'turn':
      return 'otherInTurns';
    case 'step':
    case 'compaction':
    case 'subagent':
      return null;
  }
}

/**
 * The session's time by kind, each instant counted once as the most telling kind running then
 * (waiting for the person over a tool that waits for them, a tool over the model streaming next to
 * it, anything over the bare turn), the rest as between turns: the parts add up to the total.
 * O(n log n) over the spans' ends.
 */
export function timeByKind(spans: readonly VisSpan[], start: number, end: number): VisSummary['seconds'] {
  const edges: { time: number; kind: Kind; delta: 1 | -1 }[] = [];
  for (const span of spans) {
    const kind = kindOf(span);
    const from = Math.max(start, span.start);
    const to = Math.min(end, span.end ?? end);
    if (kind === null || !(to > from)) continue;
    edges.push({ time: from, kind, delta: 1 }, { time: to, kind, delta: -1 });
  }
  edges.sort((a, b) => a.time - b.time);
  const open: Record<Kind, number> = { approvals: 0, questions: 0, tools: 0, model: 0, otherInTurns: 0 };
  const spent: Record<Kind, number> = { approvals: 0, questions: 0, tools: 0, model: 0, otherInTurns: 0 };
  let at = start;
  for (const edge of edges) {
    const current = KINDS.find((kind) => open[kind] > 0);
    if (current && edge.time > at) spent[current] += edge.time - at;
    at = Math.max(at, edge.time);
    open[edge.kind] += edge.delta;
  }
  const total = Math.max(0, end - start);
  const busy = KINDS.reduce((sum, kind) => sum + spent[kind], 0);
  return {
    ...spent,
    waiting: spent.approvals + spent.questions,
    betweenTurns: Math.max(0, total - busy),
    total,
  };
}
