import type { MarkerKind, SpanKind, VisModel, VisSpan } from '../model/vis-model.js';

/** Rows of one lane, top to bottom. */
export const LANE_ROWS = ['turn', 'step', 'model', 'tool', 'other'] as const;
export type LaneRow = (typeof LANE_ROWS)[number];

export const ROW_HEIGHT = 16;
export const LANE_GAP = 10;
export const LANE_HEADER = 16;
export const AXIS_HEIGHT = 22;
export const LABEL_WIDTH = 64;

export function rowOf(kind: SpanKind): LaneRow {
  switch (kind) {
    case 'turn':
    case 'step':
    case 'model':
    case 'tool':
      return kind;
    case 'approval':
    case 'compaction':
    case 'subagent':
      return 'other';
  }
}

export const SPAN_COLOURS: Record<SpanKind, string> = {
  turn: '#94a3b8',
  step: '#cbd5e1',
  model: '#6366f1',
  tool: '#10b981',
  approval: '#f59e0b',
  compaction: '#a855f7',
  subagent: '#0ea5e9',
};

export const MARKER_COLOURS: Record<MarkerKind, string> = {
  retry: '#ef4444',
  compaction: '#a855f7',
  dmail: '#ec4899',
  rewind: '#0ea5e9',
  interrupt: '#f97316',
  steer: '#14b8a6',
  error: '#dc2626',
};

/** The y of each lane's first row. */
export function laneTops(model: VisModel): number[] {
  const tops: number[] = [];
  let y = AXIS_HEIGHT;
  for (let lane = 0; lane < model.lanes.length; lane++) {
    tops.push(y + LANE_HEADER);
    y += LANE_HEADER + LANE_ROWS.length * ROW_HEIGHT + LANE_GAP;
  }
  return tops;
}

export function timelineHeight(model: VisModel): number {
  return AXIS_HEIGHT + model.lanes.length * (LANE_HEADER + LANE_ROWS.length * ROW_HEIGHT + LANE_GAP);
}

export function spanTop(span: VisSpan, tops: readonly number[]): number {
  return tops[span.lane]! + LANE_ROWS.indexOf(rowOf(span.kind)) * ROW_HEIGHT;
}

/** A view of the time axis: the seconds from `from` to `to` over `width` pixels after the labels. */
export interface TimeView {
  from: number;
  to: number;
  width: number;
}

export function xOf(time: number, view: TimeView): number {
  const span = view.to - view.from || 1;
  return LABEL_WIDTH + ((time - view.from) / span) * (view.width - LABEL_WIDTH);
}

export function timeAt(x: number, view: TimeView): number {
  return view.from + ((x - LABEL_WIDTH) / (view.width - LABEL_WIDTH)) * (view.to - view.from || 1);
}

/** Seconds as a short label: 850ms, 12.3s, 4m05s. */
export function formatSeconds(seconds: number): string {
  if (seconds < 1) return `${Math.round(seconds * 1000)}ms`;
  if (seconds < 60) return `${seconds.toFixed(1)}s`;
  const minutes = Math.floor(seconds / 60);
  return `${minutes}m${String(Math.round(seconds % 60)).padStart(2, '0')}s`;
}

/** A wire timestamp (Unix seconds) as the reader's local clock time, to the second: `14:05:09`. */
export function clockTime(seconds: number): string {
  return new Date(seconds * 1000).toLocaleTimeString(undefined, {
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  });
}
