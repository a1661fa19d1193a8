import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { archiveEntries, WIRE, zipOf } from '../../../session/archive/test-support/zip-fixtures.js';
import { accessPolicy } from '../../http/access.js';
import { ViewableSessions } from './viewable-sessions.js';
import { createVisApp } from './vis-app.js';

const TOKEN = 'test-token-abcdefghijklmnop';
const HOST = '127.0.0.1:5495';
let home: string;
let app: ReturnType<typeof createVisApp>;

beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), 'kimi-ts-vis-import-'));
  app = createVisApp({
    policy: () => accessPolicy({ bindHost: '127.0.0.1', port: 5495, token: TOKEN, lanOnly: true }),
    sessions: new ViewableSessions(home, { redact: (text) => text }),
    pageHtml: async () => '<!doctype html>',
    home,
    maxImportBytes: 64 * 1024,
  });
});
afterEach(async () => {
  await rm(home, { recursive: true, force: true });
});

const HOSTILE_WIRE = `${WIRE}${JSON.stringify({ timestamp: 1_700_000_002, message: { type: 'TurnBegin', payload: { user_input: '<img src=x onerror=alert(1)>' } } })}\n`;

function post(body: Uint8Array | ReadableStream<Uint8Array> | null, headers: Record<string, string> = {}) {
  return app.request(`http://${HOST}/api/vis/import`, {
    method: 'POST',
    headers: { host: HOST, authorization: `Bearer ${TOKEN}`, 'content-type': 'application/zip', ...headers },
    body,
    // A stream body (no Content-Length) needs this in Node's fetch Request.
    ...(body instanceof ReadableStream ? { duplex: 'half' } : {}),
  } as RequestInit);
}

async function leftovers(): Promise<string[]> {
  return (await readdir(join(home, 'imported_sessions')).catch(() => [])).filter((name) =>
    name.startsWith('.'),
  );
}

describe('POST /api/vis/import', () => {
  it('imports a session archive; the session is listed and served like the others', async () => {
    const zip = await zipOf(archiveEntries({ 'wire.jsonl': HOSTILE_WIRE }, 'shared-1'));
    const response = await post(new Uint8Array(zip));
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ id: 'shared-1', already_imported: false });
    const again = await post(new Uint8Array(zip));
    expect(await again.json()).toEqual({ id: 'shared-1', already_imported: true });
    const list = (await (
      await app.request(`http://${HOST}/api/vis/sessions`, {
        headers: { host: HOST, authorization: `Bearer ${TOKEN}` },
      })
    ).json()) as { sessions: { id: string; source: string }[] };
    expect(list.sessions).toEqual([expect.objectContaining({ id: 'shared-1', source: 'imported' })]);
    const model = await app.request(`http://${HOST}/api/vis/sessions/shared-1/summary`, {
      headers: { host: HOST, authorization: `Bearer ${TOKEN}` },
    });
    expect(await model.json()).toMatchObject({ id: 'shared-1', turns: 2 });
    const capabilities = await app.request(`http://${HOST}/api/vis/capabilities`, {
      headers: { host: HOST, authorization: `Bearer ${TOKEN}` },
    });
    expect(await capabilities.json()).toMatchObject({ zip_import: true });
    expect(await leftovers()).toEqual([]);
  });

  it.each([
    ['no token', { authorization: '' }, 401],
    ['a foreign Origin', { origin: 'http://evil.example' }, 403],
    ['a foreign Host', { host: 'evil.example:5495' }, 403],
  ])('refuses %s (%i) and imports nothing', async (_what, headers, status) => {
    const zip = await zipOf(archiveEntries({ 'wire.jsonl': WIRE }));
    expect((await post(new Uint8Array(zip), headers)).status).toBe(status);
    expect(await readdir(join(home, 'imported_sessions')).catch(() => [])).toEqual([]);
  });

  it('answers 413 to a body over the limit, with or without a Content-Length', async () => {
    const big = new Uint8Array(200 * 1024);
    expect((await post(big)).status).toBe(413);
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < 20; i++) controller.enqueue(new Uint8Array(16 * 1024));
        controller.close();
      },
    });
    expect((await post(stream)).status).toBe(413);
    expect(await leftovers()).toEqual([]);
  });

  it('answers 400 with the reason to a hostile or foreign archive', async () => {
    const hostile = await zipOf(
      [...archiveEntries({ 'wire.jsonl': WIRE }), { name: 'XX/evil.jsonl', data: 'x' }],
      {
        'XX/evil.jsonl': '../evil.jsonl',
      },
    );
    const response = await post(new Uint8Array(hostile));
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      error: { code: 'bad_archive', message: expect.stringMatching(/Refused|unsafe/) },
    });
    const foreign = await post(new Uint8Array(await zipOf([{ name: 'notes.txt', data: 'hi' }])));
    expect(await foreign.json()).toMatchObject({ error: { message: expect.stringMatching(/no manifest/) } });
    expect((await post(new TextEncoder().encode('not a zip'))).status).toBe(400);
    expect(await readdir(join(home, 'imported_sessions'))).toEqual([]);
  });
});
