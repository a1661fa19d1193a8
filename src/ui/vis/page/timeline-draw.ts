import type { VisModel } from '../model/vis-model.js';
import {
  AXIS_HEIGHT,
  formatSeconds,
  LABEL_WIDTH,
  LANE_HEADER,
  LANE_ROWS,
  laneTops,
  MARKER_COLOURS,
  ROW_HEIGHT,
  rowOf,
  SPAN_COLOURS,
  spanTop,
  type TimeView,
  timeAt,
  xOf,
} from './timeline-layout.js';

export type Selection = { kind: 'span'; index: number } | { kind: 'marker'; index: number };

/** Draws the timeline; returns how many bars were drawn (those inside the view). */
export function drawTimeline(
  canvas: HTMLCanvasElement,
  model: VisModel,
  view: TimeView,
  height: number,
  selected: Selection | null,
): number {
  const ratio = window.devicePixelRatio || 1;
  canvas.width = Math.round(view.width * ratio);
  canvas.height = Math.round(height * ratio);
  const g = canvas.getContext('2d');
  if (!g) return 0;
  g.setTransform(ratio, 0, 0, ratio, 0, 0);
  g.clearRect(0, 0, view.width, height);
  g.font = '11px system-ui, sans-serif';
  g.textBaseline = 'middle';
  const tops = laneTops(model);
  const openEnd = model.end;

  drawAxis(g, view, height, model.start);
  for (let lane = 0; lane < model.lanes.length; lane++) {
    const info = model.lanes[lane]!;
    g.fillStyle = '#334155';
    g.fillText(`${'  '.repeat(info.depth)}${info.label}`, 4, tops[lane]! - LANE_HEADER / 2);
    LANE_ROWS.forEach((row, i) => {
      g.fillStyle = '#64748b';
      g.fillText(row, 4, tops[lane]! + i * ROW_HEIGHT + ROW_HEIGHT / 2);
    });
  }

  g.save();
  g.beginPath();
  g.rect(LABEL_WIDTH, 0, view.width - LABEL_WIDTH, height);
  g.clip();
  let drawn = 0;
  const spans = model.spans;
  const labels: DrawnLabel[] = [];
  const nextStart = nextStartsInRow(model);
  for (let i = 0; i < spans.length; i++) {
    const span = spans[i]!;
    const end = span.end ?? openEnd;
    if (end < view.from || span.start > view.to) continue;
    const x0 = xOf(span.start, view);
    const x1 = Math.max(x0 + 1, xOf(end, view));
    const y = spanTop(span, tops) + 2;
    g.fillStyle = span.isError ? '#ef4444' : SPAN_COLOURS[span.kind];
    g.fillRect(x0, y, x1 - x0, ROW_HEIGHT - 4);
    // The label inside the bar when it fits; else after the bar, up to the next bar of its row (the
    // whole label when there is room, never squeezed into an unreadable width).
    const next = nextStart[i];
    const room = (next === undefined ? view.width : Math.min(view.width, xOf(next, view))) - x1 - 6;
    const inside = x1 - x0 - 6;
    const whole = g.measureText(span.label).width;
    const outside = whole > inside && room > inside;
    const text = fitText(g, span.label, outside ? room : inside);
    if (text) {
      g.fillStyle = outside || span.kind === 'step' || span.kind === 'turn' ? '#0f172a' : '#ffffff';
      g.fillText(text, outside ? x1 + 3 : x0 + 3, y + (ROW_HEIGHT - 4) / 2);
      labels[i] = { text, whole: text === span.label };
    }
    drawn++;
  }
  drawnLabels = labels;
  for (const marker of model.markers) {
    if (marker.time < view.from || marker.time > view.to) continue;
    const x = xOf(marker.time, view);
    const top = tops[marker.lane]!;
    g.fillStyle = MARKER_COLOURS[marker.kind];
    g.fillRect(x - 0.5, top, 1, LANE_ROWS.length * ROW_HEIGHT);
    g.beginPath();
    g.moveTo(x - 5, top - 8);
    g.lineTo(x + 5, top - 8);
    g.lineTo(x, top);
    g.fill();
  }
  if (selected) outlineSelection(g, model, view, tops, selected);
  g.restore();
  return drawn;
}

/** What the last drawing wrote for each bar (tests read it: a label shown whole, or cut). */
export interface DrawnLabel {
  text: string;
  whole: boolean;
}
let drawnLabels: DrawnLabel[] = [];
export function lastDrawnLabels(): readonly DrawnLabel[] {
  return drawnLabels;
}

const nextStartsCache = new WeakMap<VisModel, (number | undefined)[]>();

/**
 * For each span, when the next span of the same lane and row starts after it ends (where its label
 * must stop). Computed once per model: the timeline redraws on every pan and zoom.
 */
function nextStartsInRow(model: VisModel): (number | undefined)[] {
  const cached = nextStartsCache.get(model);
  if (cached) return cached;
  const byRow = new Map<string, number[]>();
  model.spans.forEach((span, i) => {
    const key = `${span.lane}:${rowOf(span.kind)}`;
    const list = byRow.get(key) ?? [];
    list.push(i);
    byRow.set(key, list);
  });
  const next: (number | undefined)[] = [];
  for (const list of byRow.values()) {
    const sorted = [...list].sort((a, b) => model.spans[a]!.start - model.spans[b]!.start);
    sorted.forEach((index, k) => {
      const end = model.spans[index]!.end ?? model.end;
      let j = k + 1;
      while (j < sorted.length && model.spans[sorted[j]!]!.start < end) j++;
      next[index] = j < sorted.length ? model.spans[sorted[j]!]!.start : undefined;
    });
  }
  nextStartsCache.set(model, next);
  return next;
}

/** The text cut with `…` to fit `width` pixels ('' when not even a few letters fit). */
function fitText(g: CanvasRenderingContext2D, text: string, width: number): string {
  if (width < 24) return '';
  if (g.measureText(text).width <= width) return text;
  let low = 0;
  let high = text.length;
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    if (g.measureText(`${text.slice(0, mid)}…`).width <= width) low = mid;
    else high = mid - 1;
  }
  return low >= 2 ? `${text.slice(0, low)}…` : '';
}

/** Ticks with the time since the session began. */
function drawAxis(g: CanvasRenderingContext2D, view: TimeView, height: number, origin: number): void {
  const seconds = view.to - view.from;
  const step = niceStep(seconds / 8);
  const first = origin + Math.ceil((view.from - origin) / step) * step;
  g.strokeStyle = '#e2e8f0';
  g.fillStyle = '#475569';
  for (let t = first; t <= view.to; t += step) {
    const x = xOf(t, view);
    g.beginPath();
    g.moveTo(x, AXIS_HEIGHT - 4);
    g.lineTo(x, height);
    g.stroke();
    // Right of its tick, or left of it at the right edge (a label is never cut by the canvas).
    const label = `+${formatSeconds(Math.max(0, t - origin))}`;
    const width = g.measureText(label).width;
    g.fillText(label, x + 2 + width > view.width ? x - 2 - width : x + 2, AXIS_HEIGHT / 2);
  }
}

function niceStep(raw: number): number {
  const power = 10 ** Math.floor(Math.log10(raw || 1e-3));
  for (const m of [1, 2, 5, 10]) if (m * power >= raw) return m * power;
  return 10 * power;
}

function outlineSelection(
  g: CanvasRenderingContext2D,
  model: VisModel,
  view: TimeView,
  tops: number[],
  selected: Selection,
): void {
  g.strokeStyle = '#0f172a';
  g.lineWidth = 2;
  if (selected.kind === 'span') {
    const span = model.spans[selected.index];
    if (!span) return;
    const x0 = xOf(span.start, view);
    const x1 = Math.max(x0 + 2, xOf(span.end ?? model.end, view));
    g.strokeRect(x0 - 1, spanTop(span, tops) + 1, x1 - x0 + 2, ROW_HEIGHT - 2);
  } else {
    const marker = model.markers[selected.index];
    if (!marker) return;
    const x = xOf(marker.time, view);
    g.strokeRect(x - 6, tops[marker.lane]! - 10, 12, 12);
  }
}

/** The bar or marker under the point (canvas pixels), if any. */
export function hitTest(model: VisModel, view: TimeView, x: number, y: number): Selection | null {
  if (x < LABEL_WIDTH) return null;
  const tops = laneTops(model);
  const slack = ((view.to - view.from) / (view.width - LABEL_WIDTH)) * 3;
  const t = timeAt(x, view);
  for (let i = model.markers.length - 1; i >= 0; i--) {
    const marker = model.markers[i]!;
    const top = tops[marker.lane]!;
    if (y >= top - 10 && y <= top && Math.abs(marker.time - t) <= slack) return { kind: 'marker', index: i };
  }
  for (let i = model.spans.length - 1; i >= 0; i--) {
    const span = model.spans[i]!;
    const top = spanTop(span, tops);
    if (y < top || y >= top + ROW_HEIGHT) continue;
    if (t >= span.start - slack && t <= (span.end ?? model.end) + slack) return { kind: 'span', index: i };
  }
  return null;
}

/** Where a span is drawn in the canvas (for tests and keyboard focus), or null if out of view. */
export function spanBox(
  model: VisModel,
  view: TimeView,
  index: number,
): { x: number; y: number; width: number; height: number } | null {
  const span = model.spans[index];
  if (!span) return null;
  const x0 = xOf(span.start, view);
  const x1 = Math.max(x0 + 1, xOf(span.end ?? model.end, view));
  const y = spanTop(span, laneTops(model));
  return { x: x0, y, width: x1 - x0, height: ROW_HEIGHT };
}
