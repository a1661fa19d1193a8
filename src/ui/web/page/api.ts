/**
 * The REST side of `kimi-ts web` (src/ui/web/README.md has the contract): every request carries the
 * bearer token; the WebSocket, which cannot send headers from a browser, offers it as a subprotocol.
 */

export interface SessionSummary {
  id: string;
  title: string;
  workDir: string;
  updatedAt: number | null;
}

export interface ModelChoice {
  alias: string;
  model: string;
  current: boolean;
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export class Api {
  constructor(
    private readonly token: string,
    private readonly origin: string = location.origin,
  ) {}

  async listWorkDirs(): Promise<string[]> {
    const body = await this.request('GET', '/api/work-dirs');
    const list = pickArray(body, 'work_dirs');
    return list.map((entry) =>
      typeof entry === 'string' ? entry : String(field(entry, 'path') ?? field(entry, 'work_dir') ?? ''),
    );
  }

  async listSessions(workDir: string | null): Promise<SessionSummary[]> {
    const query = workDir ? `?work_dir=${encodeURIComponent(workDir)}` : '';
    const body = await this.request('GET', `/api/sessions${query}`);
    return pickArray(body, 'sessions').map(toSession);
  }

  async createSession(workDir: string | null): Promise<SessionSummary> {
    const body = await this.request('POST', '/api/sessions', workDir ? { work_dir: workDir } : {});
    return toSession(field(body, 'session') ?? body);
  }

  async renameSession(id: string, title: string): Promise<void> {
    await this.request('PATCH', `/api/sessions/${encodeURIComponent(id)}`, { title });
  }

  /** The config's models; the default one is marked current (a session starts on it). */
  async listModels(): Promise<ModelChoice[]> {
    const body = await this.request('GET', '/api/config');
    const current = field(body, 'default_model');
    return pickArray(body, 'models').map((entry) => {
      const alias = String(field(entry, 'name') ?? '');
      return { alias, model: String(field(entry, 'model') ?? ''), current: alias === current };
    });
  }

  streamUrl(sessionId: string): string {
    const url = new URL(`/api/sessions/${encodeURIComponent(sessionId)}/stream`, this.origin);
    url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
    return url.href;
  }

  /** The server's wire subprotocol, and the token as a second one (a browser cannot send headers). */
  streamProtocols(): string[] {
    return ['kimi-wire', `bearer.${this.token}`];
  }

  private async request(method: string, path: string, body?: unknown): Promise<unknown> {
    const init: RequestInit = {
      method,
      headers: {
        authorization: `Bearer ${this.token}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      credentials: 'omit',
    };
    if (body !== undefined) init.body = JSON.stringify(body);
    const response = await fetch(new URL(path, this.origin), init);
    const text = await response.text();
    let parsed: unknown = null;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      parsed = text;
    }
    if (!response.ok) {
      const error = field(parsed, 'error');
      const message = field(error, 'message') ?? error ?? parsed;
      throw new ApiError(response.status, `${response.status}: ${String(message ?? response.statusText)}`);
    }
    return parsed;
  }
}

function field(value: unknown, name: string): unknown {
  return value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[name] : undefined;
}

function pickArray(body: unknown, name: string): unknown[] {
  if (Array.isArray(body)) return body;
  const inner = field(body, name);
  return Array.isArray(inner) ? inner : [];
}

function toSession(entry: unknown): SessionSummary {
  const updated = field(entry, 'updated_at') ?? field(entry, 'updatedAt');
  return {
    id: String(field(entry, 'id') ?? field(entry, 'session_id') ?? ''),
    title: String(field(entry, 'title') ?? ''),
    workDir: String(field(entry, 'work_dir') ?? field(entry, 'workDir') ?? ''),
    updatedAt:
      typeof updated === 'number'
        ? updated
        : typeof updated === 'string'
          ? Date.parse(updated) || null
          : null,
  };
}
