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
  const main = (kind: VisSpan['kind']) => model.spans.filter((s) => s.lane === 0 && s.kind === kind);
  const waiting = mergedSeconds(main('approval'), model.end);
  // A tool waiting for its approval is not working: that time counts as waiting, not tools.
  const tools = Math.max(0, mergedSeconds(main('tool'), model.end) - waiting);
  const modelSeconds = mergedSeconds(main('model'), model.end);
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
      seconds: { model: modelSeconds, tools, waiting, total: Math.max(0, model.end - model.start) },
      maxContextUsage,
    },
    slowestTools,
  };
}

/** Seconds covered by the union of the spans (overlapping calls count once). */
function mergedSeconds(spans: VisSpan[], openEnd: number): number {
  const intervals = spans
    .map((s) => [s.start, s.end ?? openEnd] as const)
    .filter(([a, b]) => b > a)
    .sort((x, y) => x[0] - y[0]);
  let total = 0;
  let from = Number.NEGATIVE_INFINITY;
  let to = Number.NEGATIVE_INFINITY;
  for (const [a, b] of intervals) {
    if (a > to) {
      if (to > from) total += to - from;
      from = a;
      to = b;
    } else if (b > to) to = b;
  }
  if (to > from) total += to - from;
  return total;
}
