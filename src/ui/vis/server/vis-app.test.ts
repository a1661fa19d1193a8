import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accessPolicy } from '../../http/access.js';
import { exportHtml, jsonForScript } from './export-html.js';
import { pageOfLines } from './line-page.js';
import { ViewableSessions } from './viewable-sessions.js';
import { createVisApp } from './vis-app.js';

const TOKEN = 'test-token-abcdefghijklmnop';
const HOST = '127.0.0.1:5495';
const PAGE = '<!doctype html><html><head><script type="module">run()</script></head><body></body></html>';
let home: string;
let outside: string;
let app: ReturnType<typeof createVisApp>;

const rec = (t: number, type: string, payload: unknown = {}) =>
  JSON.stringify({ timestamp: t, message: { type, payload } });

beforeAll(async () => {
  home = await mkdtemp(join(tmpdir(), 'kimi-ts-vis-app-'));
  const dir = join(home, 'sessions', 'key', 's-1');
  await mkdir(dir, { recursive: true });
  await writeFile(
    join(dir, 'wire.jsonl'),
    [
      JSON.stringify({ type: 'metadata', protocol_version: '1.10' }),
      rec(1, 'TurnBegin', { user_input: 'hello sk-secret-value </script><script>alert(1)</script>' }),
      rec(2, 'StepBegin', { n: 1 }),
      rec(3, 'TurnEnd'),
      '',
    ].join('\n'),
  );
  // A folder linked into the home is listed by its name; an id is only ever a name, never a path.
  outside = await mkdtemp(join(tmpdir(), 'kimi-ts-vis-outside-'));
  await writeFile(join(outside, 'wire.jsonl'), `${rec(1, 'TurnBegin', { user_input: 'outside' })}\n`);
  await symlink(outside, join(home, 'sessions', 'key', 'linked'));
  const sessions = new ViewableSessions(home, {
    redact: (text) => text.replaceAll('sk-secret-value', '[redacted]'),
  });
  app = createVisApp({
    policy: () => accessPolicy({ bindHost: '127.0.0.1', port: 5495, token: TOKEN, lanOnly: true }),
    sessions,
    pageHtml: async () => PAGE,
    home,
  });
});
afterAll(async () => {
  await rm(home, { recursive: true, force: true });
  await rm(outside, { recursive: true, force: true });
});

const request = (path: string, headers: Record<string, string> = {}) =>
  app.request(`http://${HOST}${path}`, {
    headers: { host: HOST, authorization: `Bearer ${TOKEN}`, ...headers },
  });

describe('the vis API', () => {
  it.each([
    ['no token', { authorization: '' }, 401],
    ['a wrong token', { authorization: 'Bearer nope' }, 401],
    ['a foreign Host (DNS rebinding)', { host: 'evil.example:5495' }, 403],
    ['a foreign Origin', { origin: 'http://evil.example' }, 403],
    ['an opaque Origin (a file or sandboxed page)', { origin: 'null' }, 403],
    ['an https Origin of the same host', { origin: `https://${HOST}` }, 403],
    ['its own Origin', { origin: `http://${HOST}` }, 200],
    ['localhost as Host', { host: 'localhost:5495' }, 200],
  ])('%s → %i', async (_name, headers, status) => {
    expect((await request('/api/vis/sessions', headers)).status).toBe(status);
  });

  it('serves the page without the token (it holds no data) under a policy of its own script hashes', async () => {
    const response = await app.request(`http://${HOST}/`, { headers: { host: HOST } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-security-policy')).toMatch(/script-src 'sha256-[^']+'; /);
    expect(response.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    // DNS rebinding reaches the page too.
    expect(
      (await app.request('http://evil.example:5495/', { headers: { host: 'evil.example:5495' } })).status,
    ).toBe(403);
  });

  it('lists sessions, serves a model with secrets redacted, and refuses ids that are paths', async () => {
    const list = (await (await request('/api/vis/sessions')).json()) as { sessions: { id: string }[] };
    expect(list.sessions.map((s) => s.id).sort()).toEqual(['linked', 's-1']);
    const model = await (await request('/api/vis/sessions/s-1/model')).text();
    expect(model).toContain('[redacted]');
    expect(model).not.toContain('sk-secret-value');
    for (const id of ['..', '..%2F..%2Fetc', '%2Fetc%2Fpasswd', 'nope']) {
      expect((await request(`/api/vis/sessions/${id}/model`)).status).toBe(404);
    }
  });

  it('pages and searches raw events; bad paging is a 400', async () => {
    const page = (await (await request('/api/vis/sessions/s-1/events?q=stepbegin')).json()) as ReturnType<
      typeof pageOfLines
    >;
    expect(page).toMatchObject({ total: 3, matches: 1, items: [{ index: 1 }] });
    expect((await request('/api/vis/sessions/s-1/events?limit=100000')).status).toBe(400);
    expect((await request('/api/vis/sessions/s-1/events?offset=-1')).status).toBe(400);
  });
});

describe('the exported file', () => {
  it('embeds JSON that no model text can break out of', () => {
    const text = '</script><script>alert(1)</script><!-- \u2028 &amp;';
    const json = jsonForScript({ text });
    expect(json).not.toMatch(/[<>&\u2028]/);
    expect(JSON.parse(json)).toEqual({ text });
  });

  it('puts the data and a no-network policy into the head of the page', async () => {
    const sessions = new ViewableSessions(home, {});
    const loaded = (await sessions.load('s-1'))!;
    const html = exportHtml(PAGE, loaded);
    expect(html.match(/<script/g)).toHaveLength(2);
    expect(html).toContain("connect-src 'none'");
    expect(html).not.toContain('<script>alert(1)</script>');
    expect(html.indexOf('id="vis-data"')).toBeLessThan(html.indexOf('</head>'));
  });
});

describe('pageOfLines', () => {
  it('counts every match and returns one page of them', () => {
    const lines = Array.from({ length: 10 }, (_, i) => `line ${i} ${i % 2 ? 'odd' : 'even'}`);
    expect(pageOfLines(lines, { q: 'ODD', offset: 2, limit: 2 })).toEqual({
      total: 10,
      matches: 5,
      offset: 2,
      items: [
        { index: 5, text: 'line 5 odd' },
        { index: 7, text: 'line 7 odd' },
      ],
    });
  });
});
