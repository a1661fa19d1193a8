import { useState } from 'preact/hooks';
import type { SessionSummary } from './api.js';
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
                  onClick={() => props.onSwitch(session.id)}
                >
                  {session.title || `New session · ${session.id.slice(0, 8)}`}
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
