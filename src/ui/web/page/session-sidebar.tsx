import { useState } from 'preact/hooks';
import { formatDollars } from '../../../util/token-cost.js';
import type { FleetInfo, SessionSummary } from './api.js';
import type { BackgroundTask } from './conversation-state.js';

/** The sessions of the work dir (switch, new, rename) and the session's background tasks. */
export function SessionSidebar(props: {
  workDirs: string[];
  workDir: string | null;
  sessions: SessionSummary[];
  currentId: string | null;
  tasks: BackgroundTask[];
  onWorkDir: (dir: string) => void;
  onSwitch: (id: string) => void;
  onNew: () => void;
  onRename: (id: string, title: string) => void;
}) {
  const [editing, setEditing] = useState<string | null>(null);
  const [draft, setDraft] = useState('');
  return (
    <nav class="sidebar" aria-label="sessions">
      {props.workDirs.length > 1 ? (
        <label>
          Work dir
          <select
            value={props.workDir ?? ''}
            onChange={(e) => props.onWorkDir((e.target as HTMLSelectElement).value)}
          >
            {props.workDirs.map((dir) => (
              <option key={dir} value={dir}>
                {dir}
              </option>
            ))}
          </select>
        </label>
      ) : props.workDir ? (
        <p class="work-dir" title={props.workDir}>
          {props.workDir}
        </p>
      ) : null}
      <button type="button" onClick={props.onNew}>
        + New session
      </button>
      <ul class="sessions">
        {props.sessions.map((session) => (
          <li key={session.id} class={session.id === props.currentId ? 'current' : ''}>
            {editing === session.id ? (
              <form
                onSubmit={(e) => {
                  e.preventDefault();
                  props.onRename(session.id, draft.trim());
                  setEditing(null);
                }}
              >
                <input
                  aria-label="session title"
                  value={draft}
                  onInput={(e) => setDraft((e.target as HTMLInputElement).value)}
                  onKeyDown={(e) => {
                    if (e.key === 'Escape') setEditing(null);
                  }}
                  ref={(el) => el?.focus()}
                />
              </form>
            ) : (
              <>
                <button
                  type="button"
                  class="session"
                  aria-current={session.id === props.currentId ? 'true' : undefined}
                  title={`${session.title || 'New session'} · ${session.id}`}
                  onClick={() => props.onSwitch(session.id)}
                >
                  <span class="session-title">{session.title || 'New session'}</span>
                  {/* Out of the button's name (which stays the title); the tooltip has the whole id. */}
                  <span class="session-meta" aria-hidden="true">
                    {session.fleet ? (
                      <span class="fleet-state">{`${fleetLine(session.fleet)} · `}</span>
                    ) : null}
                    {session.updatedAt !== null ? `${formatWhen(session.updatedAt)} · ` : ''}
                    <code title={session.id}>{session.id.slice(0, 8)}</code>
                  </span>
                </button>
                <button
                  type="button"
                  class="link"
                  aria-label={`rename ${session.title || session.id}`}
                  onClick={() => {
                    setDraft(session.title);
                    setEditing(session.id);
                  }}
                >
                  ✎
                </button>
              </>
            )}
          </li>
        ))}
      </ul>
      {props.tasks.length > 0 ? (
        <section aria-label="background tasks">
          <h4>Background tasks</h4>
          <ul class="tasks">
            {props.tasks.map((task) => (
              <li key={task.id}>
                ⚙ {task.description || task.id} <span class="hint">({task.status})</span>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </nav>
  );
}

/**
 * When a session was last used, in the reader's own time zone: the clock time today, else the date
 * with the time (two sessions of one title tell apart by it, and by the short id beside it).
 */
export function formatWhen(ms: number, now = new Date()): string {
  const at = new Date(ms);
  const time = at.toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' });
  if (at.toDateString() === now.toDateString()) return `today ${time}`;
  const date = at.toLocaleDateString(undefined, {
    month: 'short',
    day: 'numeric',
    ...(at.getFullYear() === now.getFullYear() ? {} : { year: 'numeric' }),
  });
  return `${date} ${time}`;
}

/** A fleet session's place: its state, the worker holding it, its tokens, its cost (text only). */
function fleetLine(fleet: FleetInfo): string {
  const worker = fleet.worker === null ? '' : ` on ${fleet.worker}`;
  const tokens = fleet.tokens === null ? '' : ` · ${fleet.tokens} tokens`;
  const cost = fleet.cost === null ? 'n/a' : formatDollars(fleet.cost);
  return `${fleet.state}${worker}${tokens} · cost ${cost}`;
}
