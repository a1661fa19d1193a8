import { useEffect, useRef, useState } from 'preact/hooks';
import type { VisModel } from '../model/vis-model.js';
import { drawTimeline, hitTest, lastDrawnLabels, type Selection, spanBox } from './timeline-draw.js';
import { type TimeView, timeAt, timelineHeight } from './timeline-layout.js';

interface Props {
  model: VisModel;
  selected: Selection | null;
  onSelect: (selection: Selection) => void;
  onRendered?: () => void;
}

/**
 * The waterfall: every span of the session as a bar on a time axis, one lane per agent, drawn on a
 * canvas (a 10,000-step session has tens of thousands of bars). Wheel zooms around the pointer, a drag
 * pans, a double click shows the whole session, a click selects the bar or marker under the pointer.
 */
export function Timeline({ model, selected, onSelect, onRendered }: Props) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const box = useRef<HTMLDivElement>(null);
  const whole = { from: model.start, to: Math.max(model.end, model.start + 0.001) };
  const [range, setRange] = useState(whole);
  const [width, setWidth] = useState(900);
  const drag = useRef<{ x: number; from: number; to: number; moved: boolean } | null>(null);
  const view: TimeView = { ...range, width };
  const height = timelineHeight(model);

  useEffect(() => setRange({ from: model.start, to: Math.max(model.end, model.start + 0.001) }), [model]);

  useEffect(() => {
    const element = box.current;
    if (!element) return;
    const observer = new ResizeObserver(() => setWidth(Math.max(300, element.clientWidth)));
    observer.observe(element);
    setWidth(Math.max(300, element.clientWidth));
    return () => observer.disconnect();
  }, []);

  useEffect(() => {
    const element = canvas.current;
    if (!element) return;
    const drawn = drawTimeline(element, model, view, height, selected);
    element.dataset.bars = String(drawn);
    // For tests and the benchmark: where a bar is on the page, in CSS pixels.
    const hook = {
      spanBox: (index: number) => spanBox(model, view, index),
      labels: () => lastDrawnLabels(),
      get left() {
        return element.getBoundingClientRect().left;
      },
      get top() {
        return element.getBoundingClientRect().top;
      },
    };
    (window as unknown as { __kimiVis?: typeof hook }).__kimiVis = hook;
    onRendered?.();
  });

  const pointerTime = (event: MouseEvent) => {
    const rect = canvas.current!.getBoundingClientRect();
    return { x: event.clientX - rect.left, y: event.clientY - rect.top };
  };

  const onWheel = (event: WheelEvent) => {
    event.preventDefault();
    const { x } = pointerTime(event);
    const at = timeAt(x, view);
    const factor = event.deltaY > 0 ? 1.25 : 0.8;
    const from = at - (at - range.from) * factor;
    const to = at + (range.to - at) * factor;
    if (to - from > 1e-4) setRange({ from: Math.max(whole.from, from), to: Math.min(whole.to, to) });
  };

  const onMouseDown = (event: MouseEvent) => {
    drag.current = { x: event.clientX, from: range.from, to: range.to, moved: false };
  };
  const onMouseMove = (event: MouseEvent) => {
    const start = drag.current;
    if (!start) return;
    const dx = event.clientX - start.x;
    if (Math.abs(dx) > 3) start.moved = true;
    if (!start.moved) return;
    const seconds = (dx / (width - 64)) * (start.to - start.from);
    setRange({ from: start.from - seconds, to: start.to - seconds });
  };
  const onMouseUp = (event: MouseEvent) => {
    const start = drag.current;
    drag.current = null;
    if (start?.moved) return;
    const { x, y } = pointerTime(event);
    const hit = hitTest(model, view, x, y);
    if (hit) onSelect(hit);
  };

  const zoom = (factor: number) => {
    const mid = (range.from + range.to) / 2;
    const half = ((range.to - range.from) / 2) * factor;
    setRange({ from: Math.max(whole.from, mid - half), to: Math.min(whole.to, mid + half) });
  };

  /** Arrows walk the bars in time order (and bring the chosen one into view); + and - zoom. */
  const onKeyDown = (event: KeyboardEvent) => {
    const keys: Record<string, () => void> = {
      ArrowRight: () => step(1),
      ArrowLeft: () => step(-1),
      '+': () => zoom(0.5),
      '=': () => zoom(0.5),
      '-': () => zoom(2),
      Home: () => setRange(whole),
    };
    const action = keys[event.key];
    if (!action) return;
    event.preventDefault();
    action();
  };
  const step = (by: number) => {
    const current = selected?.kind === 'span' ? selected.index : by > 0 ? -1 : model.spans.length;
    const index = Math.min(model.spans.length - 1, Math.max(0, current + by));
    const span = model.spans[index];
    if (!span) return;
    onSelect({ kind: 'span', index });
    const end = span.end ?? model.end;
    if (span.start < range.from || end > range.to) {
      const width = range.to - range.from;
      setRange({ from: span.start - width / 4, to: span.start - width / 4 + width });
    }
  };

  return (
    <div class="timeline" ref={box}>
      <div class="timeline-tools">
        <button type="button" onClick={() => setRange(whole)}>
          whole session
        </button>
        <span class="hint">wheel or +/−: zoom · drag: pan · click a bar (or ←/→): its event</span>
      </div>
      <div class="timeline-scroll">
        <canvas
          ref={canvas}
          class="timeline-canvas"
          tabIndex={0}
          role="img"
          aria-label={`Timeline of ${model.spans.length} bars on ${model.lanes.length} lanes`}
          style={{ width: `${width}px`, height: `${height}px` }}
          onKeyDown={onKeyDown}
          onWheel={onWheel}
          onMouseDown={onMouseDown}
          onMouseMove={onMouseMove}
          onMouseUp={onMouseUp}
          onMouseLeave={() => {
            drag.current = null;
          }}
          onDblClick={() => setRange(whole)}
        />
      </div>
    </div>
  );
}
