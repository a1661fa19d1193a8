import { useEffect, useState } from 'preact/hooks';
import type { LineList, LinePage, VisDataSource } from './data-source.js';
import { clockTime } from './timeline-layout.js';

const PAGE = 100;

interface Props {
  source: VisDataSource;
  sessionId: string;
  list: LineList;
  selected: number | null;
  onSelect: (index: number) => void;
}

/** The raw events (or context messages) of the session: searchable, a page at a time, as text. */
export function LinesPanel({ source, sessionId, list, selected, onSelect }: Props) {
  const [q, setQ] = useState('');
  const [offset, setOffset] = useState(0);
  const [page, setPage] = useState<LinePage | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    setOffset(0);
  }, [q, list, sessionId]);

  useEffect(() => {
    let live = true;
    source
      .lines(sessionId, list, { q, offset, limit: PAGE })
      .then((next) => {
        if (!live) return;
        setPage(next);
        setError(null);
      })
      .catch((e: unknown) => live && setError(String(e)));
    return () => {
      live = false;
    };
  }, [source, sessionId, list, q, offset]);

  return (
    <section class="lines" data-list={list}>
      <input
        type="search"
        placeholder={list === 'events' ? 'search the raw events' : 'search the context messages'}
        value={q}
        onInput={(e) => setQ((e.target as HTMLInputElement).value)}
        aria-label={`search ${list}`}
      />
      {error ? <p class="error">{error}</p> : null}
      {page ? (
        <p class="count">
          {page.matches.toLocaleString()} of {page.total.toLocaleString()}
          {page.matches > PAGE ? ` — ${offset + 1}…${Math.min(offset + PAGE, page.matches)}` : ''}
        </p>
      ) : null}
      <ol class="line-list">
        {page?.items.map((item) => (
          <li key={item.index} class={item.index === selected ? 'selected' : ''}>
            <button type="button" onClick={() => onSelect(item.index)}>
              <span class="index">{item.index}</span>
              {list === 'events' ? <span class="when">{eventClockTime(item.text)}</span> : null}
              <span class="type">{lineType(item.text, list)}</span>
              <span class="text">{item.text.slice(0, 160)}</span>
            </button>
          </li>
        ))}
      </ol>
      <p class="pager">
        <button type="button" disabled={offset === 0} onClick={() => setOffset(Math.max(0, offset - PAGE))}>
          previous
        </button>
        <button
          type="button"
          disabled={!page || offset + PAGE >= page.matches}
          onClick={() => setOffset(offset + PAGE)}
        >
          next
        </button>
      </p>
    </section>
  );
}

/** The type of an event line, or the role of a context message. */
export function lineType(text: string, list: LineList): string {
  try {
    const value = JSON.parse(text) as { message?: { type?: unknown }; role?: unknown };
    const type = list === 'events' ? value.message?.type : value.role;
    return typeof type === 'string' ? type : '?';
  } catch {
    return 'unreadable';
  }
}

/** One event, whole, pretty-printed as text. */
export function EventDetail({
  source,
  sessionId,
  index,
  title,
}: {
  source: VisDataSource;
  sessionId: string;
  index: number;
  /** What the event is to the selection (`the call`, `its result`). */
  title?: string;
}) {
  const [text, setText] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    source
      .lines(sessionId, 'events', { q: '', offset: index, limit: 1 })
      .then((page) => live && setText(pretty(page.items[0]?.text ?? '(no such event)')))
      .catch((e: unknown) => live && setText(String(e)));
    return () => {
      live = false;
    };
  }, [source, sessionId, index]);
  return (
    <section class="detail" data-event={index}>
      <h3>
        event {index}
        {title ? ` — ${title}` : ''}
        {text ? <span class="when"> {eventClockTime(text)}</span> : null}
      </h3>
      <pre>{text ?? '…'}</pre>
    </section>
  );
}

/** An event line's timestamp as local clock time (`14:05:09`), or '' when it has none. */
export function eventClockTime(text: string): string {
  const match = /"timestamp":\s*([\d.]+)/.exec(text);
  return match ? clockTime(Number(match[1])) : '';
}

function pretty(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}
