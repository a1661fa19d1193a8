import { describe, expect, test } from 'vitest';
import { useScriptedCli } from '../support/scripted-cli.js';
import { startWebServer, type WebServerProcess, WebWireClient } from '../support/web-server-client.js';

const cli = useScriptedCli();

interface SessionJSON {
  id: string;
  title: string;
  work_dir: string;
  turns: number;
  open: boolean;
  busy: boolean;
}

const json = { 'Content-Type': 'application/json' };

async function call<T>(
  server: WebServerProcess,
  path: string,
  init: RequestInit = {},
  status = 200,
): Promise<T> {
  const response = await server.api(path, init);
  const text = await response.text();
  expect(response.status, `${init.method ?? 'GET'} ${path}: ${text}`).toBe(status);
  return JSON.parse(text) as T;
}

describe('kimi-ts web: REST', () => {
  test('create, run two turns, list, rename, fork at a turn, export, delete; the config without keys', async () => {
    const { sandbox } = await cli.setup([{ text: 'First answer.' }, { text: 'Second answer.' }], {
      apiKey: 'sk-rest-secret-key-123',
    });
    const server = await startWebServer(sandbox);
    try {
      const { session } = await call<{ session: { id: string; work_dir: string } }>(
        server,
        '/api/sessions',
        { method: 'POST', headers: json, body: JSON.stringify({ work_dir: sandbox.workDir }) },
        201,
      );
      const client = await WebWireClient.connect(server, session.id);
      await client.request('initialize', { protocol_version: '1.10' });
      expect((await client.request('prompt', { user_input: 'one' })).result).toEqual({ status: 'finished' });
      expect((await client.request('prompt', { user_input: 'two' })).result).toEqual({ status: 'finished' });
      await client.close();

      const { sessions } = await call<{ sessions: SessionJSON[] }>(server, '/api/sessions');
      expect(sessions).toHaveLength(1);
      expect(sessions[0]).toMatchObject({
        id: session.id,
        work_dir: sandbox.workDir,
        turns: 2,
        open: true,
        busy: false,
      });
      const filtered = await call<{ sessions: SessionJSON[] }>(
        server,
        `/api/sessions?work_dir=${encodeURIComponent('/elsewhere')}`,
      );
      expect(filtered.sessions).toEqual([]);

      const renamed = await call<{ session: SessionJSON }>(server, `/api/sessions/${session.id}`, {
        method: 'PATCH',
        headers: json,
        body: JSON.stringify({ title: 'Named from the web' }),
      });
      expect(renamed.session.title).toBe('Named from the web');
      for (const body of ['{"title":""}', '{"title":"a\\u001b[2Jb"}', '{"title":"x","extra":1}'])
        await call(server, `/api/sessions/${session.id}`, { method: 'PATCH', headers: json, body }, 400);

      const fork = await call<{ session: SessionJSON }>(
        server,
        `/api/sessions/${session.id}/fork`,
        { method: 'POST', headers: json, body: JSON.stringify({ turn: 1 }) },
        201,
      );
      expect(fork.session.id).not.toBe(session.id);
      expect(fork.session.turns).toBe(1);
      expect(fork.session.title).toBe('Fork: Named from the web');
      await call(
        server,
        `/api/sessions/${session.id}/fork`,
        { method: 'POST', headers: json, body: '{"turn":9}' },
        400,
      );

      const exported = await server.api(`/api/sessions/${session.id}/export`);
      expect(exported.headers.get('content-type')).toMatch(/text\/markdown/);
      const markdown = await exported.text();
      expect(markdown).toContain('First answer.');
      expect(markdown).toContain('Second answer.');

      // Deleting a session a client watches (no turn running): the client's stream is closed with
      // 4404 and the reason; the session is gone.
      const watcher = await WebWireClient.connect(server, fork.session.id);
      await call(server, `/api/sessions/${fork.session.id}`, { method: 'DELETE' }, 200);
      expect(await watcher.closed).toBe(4404);
      await call(server, `/api/sessions/${fork.session.id}`, {}, 404);
      // A plain GET of a stream URL says whether a WebSocket would be served, or why not.
      await call(server, `/api/sessions/${fork.session.id}/stream`, {}, 404);
      await call(server, `/api/sessions/${session.id}/stream`, {}, 426);

      const config = await server.api('/api/config');
      const configText = await config.text();
      expect(JSON.parse(configText)).toMatchObject({
        default_model: 'e2e',
        models: [
          { name: 'e2e', provider_type: 'openai_legacy', model: 'e2e-model', max_context_size: 100000 },
        ],
      });
      expect(configText).not.toContain('sk-rest-secret-key-123');
      expect(configText).not.toContain('base_url');
      const workDirs = await call<{ default: string; work_dirs: { path: string; exists: boolean }[] }>(
        server,
        '/api/work-dirs',
      );
      expect(workDirs.work_dirs).toContainEqual({ path: sandbox.workDir, exists: true });
    } finally {
      expect(await server.stop()).toBe(0);
    }
  });
});
