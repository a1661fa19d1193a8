import type { VisModel } from '../model/vis-model.js';
import { formatSeconds, SPAN_COLOURS } from './timeline-layout.js';

const W = 560;
const H = 140;
const PAD = 28;
/** At most this many columns: a 10,000-step session is summed into buckets of steps. */
const MAX_COLUMNS = 280;

const TOKEN_COLOURS = { input: '#6366f1', cached: '#a5b4fc', output: '#f59e0b' } as const;

/** Tokens per step, stacked: input (not cached), cached input, output. */
export function TokensChart({ model }: { model: VisModel }) {
  const steps = model.steps.filter((s) => s.lane === 0);
  const per = Math.max(1, Math.ceil(steps.length / MAX_COLUMNS));
  const columns: { input: number; cached: number; output: number }[] = [];
  for (let i = 0; i < steps.length; i += per) {
    const column = { input: 0, cached: 0, output: 0 };
    for (const step of steps.slice(i, i + per)) {
      column.input += step.tokens.input;
      column.cached += step.tokens.cached;
      column.output += step.tokens.output;
    }
    columns.push(column);
  }
  const max = Math.max(1, ...columns.map((c) => c.input + c.cached + c.output));
  const width = (W - PAD) / Math.max(1, columns.length);
  const paths = { input: '', cached: '', output: '' };
  columns.forEach((column, i) => {
    let y = H - PAD;
    for (const key of ['input', 'cached', 'output'] as const) {
      const h = (column[key] / max) * (H - PAD - 8);
      if (h > 0)
        paths[key] +=
          `M${PAD + i * width},${y - h}h${Math.max(0.5, width - 0.5)}v${h}h${-Math.max(0.5, width - 0.5)}z`;
      y -= h;
    }
  });
  return (
    <figure class="chart" data-chart="tokens">
      <figcaption>
        Tokens per step{per > 1 ? ` (${per} steps a column)` : ''} — max {max.toLocaleString()}
      </figcaption>
      <svg viewBox={`0 0 ${W} ${H}`} role="img" aria-label="tokens per step">
        <line x1={PAD} y1={H - PAD} x2={W} y2={H - PAD} stroke="#94a3b8" />
        {(['input', 'cached', 'output'] as const).map((key) => (
          <path key={key} d={paths[key]} fill={TOKEN_COLOURS[key]} data-series={key} />
        ))}
        <text x={PAD} y={H - 8} class="axis">
          step 1
        </text>
        <text x={W - 60} y={H - 8} class="axis">
          step {steps.length}
        </text>
      </svg>
      <Legend entries={Object.entries(TOKEN_COLOURS)} />
    </figure>
  );
}

/** Context use over the session, with the compactions marked. */
export function ContextChart({ model }: { model: VisModel }) {
  const span = Math.max(model.end - model.start, 0.001);
  const x = (t: number) => PAD + ((t - model.start) / span) * (W - PAD);
  const y = (usage: number) => H - PAD - Math.min(1, usage) * (H - PAD - 8);
  const stride = Math.max(1, Math.ceil(model.context.length / 2000));
  const points = model.context
    .filter((_, i) => i % stride === 0 || i === model.context.length - 1)
    .map((p) => `${x(p.time).toFixed(1)},${y(p.usage).toFixed(1)}`)
    .join(' ');
  return (
    <figure class="chart" data-chart="context">
      <figcaption>
        Context used — peak {(model.summary.maxContextUsage * 100).toFixed(1)}%,{' '}
        {model.compactionTimes.length} compaction(s)
      </figcaption>
      <svg viewBox={`0 0 ${W} ${H}`} role="img" aria-label="context over the session">
        <line x1={PAD} y1={H - PAD} x2={W} y2={H - PAD} stroke="#94a3b8" />
        <line x1={PAD} y1={y(1)} x2={W} y2={y(1)} stroke="#fecaca" stroke-dasharray="4 3" />
        <text x={2} y={y(1) + 4} class="axis">
          100%
        </text>
        {model.compactionTimes.map((t) => (
          <line key={t} x1={x(t)} x2={x(t)} y1={8} y2={H - PAD} stroke="#a855f7" data-compaction="" />
        ))}
        <polyline points={points} fill="none" stroke="#0ea5e9" stroke-width="1.5" />
      </svg>
    </figure>
  );
}

/**
 * Where the time went on the main lane, each instant once (so the parts add up to the whole): the
 * model, tools, waiting for an approval, waiting for an answer, the rest of a turn, between turns.
 */
export function TimeByKind({ model }: { model: VisModel }) {
  const { seconds } = model.summary;
  const parts = [
    { name: 'model', value: seconds.model, colour: SPAN_COLOURS.model },
    { name: 'tools', value: seconds.tools, colour: SPAN_COLOURS.tool },
    { name: 'waiting for approval', value: seconds.approvals, colour: SPAN_COLOURS.approval },
    { name: 'waiting for an answer', value: seconds.questions, colour: '#fbbf24' },
    { name: 'rest of the turns', value: seconds.otherInTurns, colour: SPAN_COLOURS.turn },
    { name: 'between turns', value: seconds.betweenTurns, colour: '#e2e8f0' },
  ];
  const total = Math.max(0.001, seconds.total);
  let x = 0;
  return (
    <figure class="chart" data-chart="time">
      <figcaption>Time by kind ({formatSeconds(seconds.total)} in all)</figcaption>
      <svg viewBox={`0 0 ${W} 24`} role="img" aria-label="time by kind">
        {parts.map((part) => {
          const w = (part.value / total) * W;
          const rect = (
            <rect
              key={part.name}
              x={x}
              y={2}
              width={w}
              height={20}
              fill={part.colour}
              data-kind={part.name}
            />
          );
          x += w;
          return rect;
        })}
      </svg>
      <Legend
        entries={parts
          .filter((p) => p.value > 0)
          .map((p) => [
            `${p.name} ${formatSeconds(p.value)} (${Math.round((p.value / total) * 100)}%)`,
            p.colour,
          ])}
      />
    </figure>
  );
}

export function SlowestTools({ model, onSelect }: { model: VisModel; onSelect: (span: number) => void }) {
  const max = Math.max(0.001, ...model.slowestTools.map((t) => t.seconds));
  return (
    <figure class="chart" data-chart="slowest">
      <figcaption>Slowest tool calls</figcaption>
      {model.slowestTools.length === 0 ? <p class="empty">No tool calls.</p> : null}
      <ol class="slowest">
        {model.slowestTools.map((tool) => (
          <li key={tool.span}>
            <button type="button" onClick={() => onSelect(tool.span)} title={tool.name}>
              <span class="bar" style={{ width: `${(tool.seconds / max) * 100}%` }} />
              <span class="name">{tool.name}</span>
              <span class="secs">{formatSeconds(tool.seconds)}</span>
            </button>
          </li>
        ))}
      </ol>
    </figure>
  );
}

function Legend({ entries }: { entries: [string, string][] }) {
  return (
    <p class="legend">
      {entries.map(([name, colour]) => (
        <span key={name}>
          <i style={{ background: colour }} /> {name}
        </span>
      ))}
    </p>
  );
}
