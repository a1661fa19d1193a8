import { type ModelPrice, parsePrice } from '../../../util/token-cost.js';
import type { CloseDiagnosis } from './wire-client.js';

/**
 * The REST side of `kimi-ts web` (src/ui/web/README.md has the contract): every request carries the
 * bearer token; the WebSocket, which cannot send headers from a browser, offers it as a subprotocol.
 */

export interface SessionSummary {
  id: string;
  title: string;
  workDir: string;
  updatedAt: number | null;
  /** A session of the fleet (`web --queue`): where it is, which worker holds it, its tokens and cost. */
  fleet?: FleetInfo | undefined;
}

export interface FleetInfo {
  state: string;
  worker: string | null;
  tokens: number | null;
  /** Dollars its turns cost at the workers' prices; null: n/a (a model without a price). */
  cost: number | null;
}

export interface ModelChoice {
  alias: string;
  model: string;
  current: boolean;
  /** Dollars per million tokens (`[models.x] price`), null when the config gives none. */
  price: ModelPrice | null;
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

  /** The work dirs with sessions, and the one `web` was started in (the page opens that one). */
  async listWorkDirs(): Promise<{ dirs: string[]; defaultDir: string | null }> {
    const body = await this.request('GET', '/api/work-dirs');
    const list = pickArray(body, 'work_dirs');
    const dirs = list.map((entry) =>
      typeof entry === 'string' ? entry : String(field(entry, 'path') ?? field(entry, 'work_dir') ?? ''),
    );
    const given = field(body, 'default');
    return { dirs, defaultDir: typeof given === 'string' && given ? given : (dirs[0] ?? null) };
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

  /** A new session with turns 1..turn of `id` (all of them without `turn`). */
  async forkSession(id: string, turn?: number): Promise<SessionSummary> {
    const body = await this.request(
      'POST',
      `/api/sessions/${encodeURIComponent(id)}/fork`,
      turn === undefined ? {} : { turn },
    );
    return toSession(field(body, 'session'));
  }

  async deleteSession(id: string): Promise<void> {
    await this.request('DELETE', `/api/sessions/${encodeURIComponent(id)}`);
  }

  /** The conversation as Markdown (secrets redacted by the server), for a download. */
  async exportSession(id: string): Promise<Blob> {
    const response = await fetch(new URL(`/api/sessions/${encodeURIComponent(id)}/export`, this.origin), {
      headers: { authorization: `Bearer ${this.token}` },
      credentials: 'omit',
    });
    if (!response.ok) throw new ApiError(response.status, await errorMessage(response));
    return new Blob([await response.arrayBuffer()], { type: 'text/markdown;charset=utf-8' });
  }

  /**
   * Why the session's WebSocket closed or was refused: a plain GET of the stream URL answers 426 when
   * it would be served, or the refusal the upgrade got. 5xx other than `session_unavailable` and a
   * network failure are transient; any other refusal is permanent.
   */
  async diagnoseStream(id: string): Promise<CloseDiagnosis> {
    let response: Response;
    try {
      response = await fetch(new URL(`/api/sessions/${encodeURIComponent(id)}/stream`, this.origin), {
        headers: { authorization: `Bearer ${this.token}` },
        credentials: 'omit',
      });
    } catch {
      return { kind: 'transient', reason: 'The server cannot be reached.' };
    }
    if (response.status === 426) return { kind: 'ok' };
    const text = await errorText(response);
    const code = field(field(text.parsed, 'error'), 'code');
    const reason = text.message;
    // The fleet's Redis away (`web --queue`): said as it is, and retried.
    if (code === 'fleet_unreachable') return { kind: 'transient', reason };
    if (response.status >= 500 && code !== 'session_unavailable')
      return { kind: 'transient', reason: `The server answered ${response.status}.` };
    if (response.status === 408 || response.status === 429) return { kind: 'transient', reason };
    return { kind: 'permanent', reason };
  }

  /** The config's models; the default one is marked current (a session starts on it). */
  async listModels(): Promise<ModelChoice[]> {
    const body = await this.request('GET', '/api/config');
    const current = field(body, 'default_model');
    return pickArray(body, 'models').map((entry) => {
      const alias = String(field(entry, 'name') ?? '');
      return {
        alias,
        model: String(field(entry, 'model') ?? ''),
        current: alias === current,
        price: parsePrice(field(entry, 'price')),
      };
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
    if (!response.ok) throw new ApiError(response.status, await errorMessage(response));
    const text = await response.text();
    try {
      return text ? JSON.parse(text) : null;
    } catch {
      return text;
    }
  }
}

/** An error answer's `{error: {code, message}}` body, and its message for a person. */
async function errorText(response: Response): Promise<{ parsed: unknown; message: string }> {
  const text = await response.text().catch(() => '');
  let parsed: unknown = null;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    parsed = text;
  }
  const error = field(parsed, 'error');
  const message = field(error, 'message') ?? (typeof error === 'string' ? error : null);
  return {
    parsed,
    message: typeof message === 'string' && message ? message : `${response.status} ${response.statusText}`,
  };
}

async function errorMessage(response: Response): Promise<string> {
  return `${response.status}: ${(await errorText(response)).message}`;
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
    fleet: toFleetInfo(field(entry, 'fleet')),
  };
}

function toFleetInfo(value: unknown): FleetInfo | undefined {
  const state = field(value, 'state');
  if (typeof state !== 'string') return undefined;
  const worker = field(value, 'worker');
  const tokens = field(value, 'tokens');
  const cost = field(value, 'cost');
  return {
    state,
    worker: typeof worker === 'string' ? worker : null,
    tokens: typeof tokens === 'number' ? tokens : null,
    cost: typeof cost === 'number' && Number.isFinite(cost) && cost >= 0 ? cost : null,
  };
}
