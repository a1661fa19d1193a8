import { type LinePage, pageOfLines } from '../model/line-page.js';
import type { VisModel } from '../model/vis-model.js';

export type { LinePage };

export interface SessionListItem {
  id: string;
  /** Its custom title, else its first prompt (absent from an older server). */
  title?: string;
  updated_at: number;
  source?: 'home' | 'folder' | 'imported';
}

export interface ImportAnswer {
  id: string;
  already_imported: boolean;
}

export type LineList = 'events' | 'context';

/** Where the page gets its session from: the vis server's API, or the JSON embedded in an export. */
export interface VisDataSource {
  readonly live: boolean;
  sessions(): Promise<SessionListItem[]>;
  model(id: string): Promise<VisModel>;
  lines(id: string, list: LineList, query: { q: string; offset: number; limit: number }): Promise<LinePage>;
  /** Uploads a session ZIP (`kimi-ts export --zip`) to the server, which imports it (live only). */
  importZip?: (file: Blob) => Promise<ImportAnswer>;
}

interface Embedded {
  model: VisModel;
  events: string[];
  context: string[];
}

/** The session embedded by `kimi-ts vis --export` (a `<script type="application/json">`), if any. */
export function embeddedSource(): VisDataSource | null {
  const element = document.getElementById('vis-data');
  if (!element?.textContent) return null;
  const data = JSON.parse(element.textContent) as Embedded;
  return {
    live: false,
    sessions: async () => [
      { id: data.model.sessionId, title: data.model.title, updated_at: data.model.end * 1000 },
    ],
    model: async () => data.model,
    lines: async (_id, list, query) => pageOfLines(data[list], query),
  };
}

/** The vis server's API, with the token the page's address carried. */
export function apiSource(token: string): VisDataSource {
  const get = async <T>(path: string): Promise<T> => {
    const response = await fetch(path, { headers: { Authorization: `Bearer ${token}` } });
    if (!response.ok) throw new Error(`${response.status}: ${(await response.text()).slice(0, 200)}`);
    return (await response.json()) as T;
  };
  const session = (id: string) => `/api/vis/sessions/${encodeURIComponent(id)}`;
  return {
    live: true,
    sessions: async () => (await get<{ sessions: SessionListItem[] }>('/api/vis/sessions')).sessions,
    model: (id) => get<VisModel>(`${session(id)}/model`),
    lines: (id, list, query) => {
      const params = new URLSearchParams({
        q: query.q,
        offset: String(query.offset),
        limit: String(query.limit),
      });
      return get<LinePage>(`${session(id)}/${list}?${params}`);
    },
    importZip: async (file) => {
      const response = await fetch('/api/vis/import', {
        method: 'POST',
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/zip' },
        body: file,
      });
      const answer = (await response.json().catch(() => null)) as
        | (ImportAnswer & { error?: { message?: string } })
        | null;
      if (!response.ok || !answer) {
        throw new Error(answer?.error?.message ?? `The import failed (${response.status}).`);
      }
      return answer;
    },
  };
}
