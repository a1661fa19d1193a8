import type { MarkerKind, SpanKind, VisModel, VisSpan } from './vis-model.js';

/** The bars (spans) and markers of a session's timeline, in the order they were opened. */
export class TimelineRecorder {
  readonly spans: VisSpan[] = [];
  readonly markers: VisModel['markers'] = [];

  /** Opens a bar; returns its index, for `close`. */
  open(kind: SpanKind, lane: number, start: number, label: string, event: number, step?: number): number {
    const span: VisSpan = { kind, lane, start, end: null, label, event };
    if (step !== undefined) span.step = step;
    this.spans.push(span);
    return this.spans.length - 1;
  }

  /** Ends a bar (never before its start); a bar already ended keeps its end. */
  close(index: number | null, time: number): void {
    const span = index === null ? undefined : this.spans[index];
    if (span?.end === null) span.end = Math.max(span.start, time);
  }

  /** Ends a tool's bar at its result, which it keeps (a click on the bar shows call and result). */
  closeTool(index: number, time: number, resultEvent: number, isError: boolean): void {
    this.close(index, time);
    const span = this.spans[index];
    if (!span) return;
    span.resultEvent = resultEvent;
    if (isError) span.isError = true;
  }

  mark(lane: number, kind: MarkerKind, time: number, label: string, event: number): void {
    this.markers.push({ kind, lane, time, label, event });
  }
}
