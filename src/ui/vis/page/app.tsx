import { useCallback, useEffect, useState } from 'preact/hooks';
import type { VisModel } from '../model/vis-model.js';
import { ContextChart, SlowestTools, TimeByKind, TokensChart } from './charts.js';
import type { LineList, SessionListItem, VisDataSource } from './data-source.js';
import { EventDetail, LinesPanel } from './lines-panel.js';
import { Summary } from './summary.js';
import { Timeline } from './timeline.js';
import type { Selection } from './timeline-draw.js';
import { clockTime, formatSeconds } from './timeline-layout.js';
import { ZipImport } from './zip-import.js';

/** Marks the first drawn timeline, once: the benchmark measures navigation start to this mark. */
function markRendered(): void {
  if (document.documentElement.dataset.visRendered) return;
  document.documentElement.dataset.visRendered = '1';
  performance.mark('vis-first-render');
}

export function App({ source, initialSession }: { source: VisDataSource; initialSession: string | null }) {
  const [sessions, setSessions] = useState<SessionListItem[]>([]);
  const [sessionId, setSessionId] = useState<string | null>(initialSession);
  const [model, setModel] = useState<VisModel | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [selected, setSelected] = useState<Selection | null>(null);
  const [eventIndex, setEventIndex] = useState<number | null>(null);
  const [list, setList] = useState<LineList>('events');

  const loadSessions = useCallback(() => {
    source
      .sessions()
      .then((all) => {
        setSessions(all);
        setSessionId((current) => current ?? all[0]?.id ?? null);
      })
      .catch((e: unknown) => setError(String(e)));
  }, [source]);
  useEffect(loadSessions, [loadSessions]);

  /** A session imported from the page: open it, and list it. */
  const opened = (id: string) => {
    setError(null);
    setSessionId(id);
    loadSessions();
  };

  useEffect(() => {
    if (!sessionId) return;
    setModel(null);
    setSelected(null);
    setEventIndex(null);
    source
      .model(sessionId)
      .then(setModel)
      .catch((e: unknown) => setError(String(e)));
  }, [source, sessionId]);

  const select = (selection: Selection) => {
    setSelected(selection);
    const item = selection.kind === 'span' ? model?.spans[selection.index] : model?.markers[selection.index];
    if (item) setEventIndex(item.event);
  };
  // A tool bar shows its call and, once it came, its result.
  const selectedSpan = selected?.kind === 'span' ? model?.spans[selected.index] : undefined;
  const resultIndex =
    selectedSpan?.kind === 'tool' && selectedSpan.event === eventIndex
      ? (selectedSpan.resultEvent ?? null)
      : null;

  return (
    <main class="vis">
      <header>
        <h1>kimi-ts vis</h1>
        {source.live && sessions.length > 1 ? (
          <select
            aria-label="session"
            value={sessionId ?? ''}
            onChange={(e) => setSessionId((e.target as HTMLSelectElement).value)}
          >
            {sessions.map((s) => (
              <option key={s.id} value={s.id} title={s.id}>
                {s.title || 'untitled session'} — {new Date(s.updated_at).toLocaleString()} ·{' '}
                {s.id.slice(0, 8)}
                {s.source === 'imported' ? ' (imported)' : ''}
              </option>
            ))}
          </select>
        ) : null}
        {source.live ? null : <span class="badge">exported file</span>}
        {source.importZip ? <ZipImport importZip={source.importZip} onImported={opened} /> : null}
      </header>
      {error ? <p class="error">{error}</p> : null}
      {!sessionId && !error ? <p class="empty">No sessions yet.</p> : null}
      {sessionId && !model && !error ? <p class="loading">Reading the session…</p> : null}
      {model && sessionId ? (
        <div class="layout">
          <div class="left">
            <Summary model={model} />
            <Timeline model={model} selected={selected} onSelect={select} onRendered={markRendered} />
            <Selected model={model} selected={selected} />
            <div class="charts">
              <TokensChart model={model} />
              <ContextChart model={model} />
              <TimeByKind model={model} />
              <SlowestTools model={model} onSelect={(index) => select({ kind: 'span', index })} />
            </div>
          </div>
          <aside class="right">
            <div class="tabs" role="tablist">
              {(['events', 'context'] as const).map((name) => (
                <button
                  key={name}
                  type="button"
                  role="tab"
                  aria-selected={list === name}
                  onClick={() => setList(name)}
                >
                  {name === 'events' ? 'raw events' : 'context messages'}
                </button>
              ))}
            </div>
            {eventIndex !== null ? (
              <EventDetail
                source={source}
                sessionId={sessionId}
                index={eventIndex}
                title={resultIndex !== null ? 'the call' : undefined}
              />
            ) : null}
            {resultIndex !== null ? (
              <EventDetail source={source} sessionId={sessionId} index={resultIndex} title="its result" />
            ) : null}
            <LinesPanel
              source={source}
              sessionId={sessionId}
              list={list}
              selected={list === 'events' ? eventIndex : null}
              onSelect={(index) => (list === 'events' ? setEventIndex(index) : undefined)}
            />
          </aside>
        </div>
      ) : null}
    </main>
  );
}

function Selected({ model, selected }: { model: VisModel; selected: Selection | null }) {
  if (!selected) return <p class="selected-bar empty">Click a bar or a marker to see its event.</p>;
  if (selected.kind === 'marker') {
    const marker = model.markers[selected.index]!;
    return (
      <p class="selected-bar" data-selected="marker">
        <b>{marker.kind}</b> {marker.label} — at {clockTime(marker.time)} (+
        {formatSeconds(marker.time - model.start)})
      </p>
    );
  }
  const span = model.spans[selected.index]!;
  const seconds = (span.end ?? model.end) - span.start;
  return (
    <p class="selected-bar" data-selected="span">
      <b>{span.kind}</b> {span.label} — {formatSeconds(seconds)}
      {span.end === null ? ' (still running)' : ''} from {clockTime(span.start)} (+
      {formatSeconds(span.start - model.start)}){span.isError ? ' — failed' : ''}
    </p>
  );
}
