import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { accessPolicy } from '../../http/access.js';
import { SessionDirectory } from './session-directory.js';
import { SessionHosts } from './session-hosts.js';
import { buildWebApp } from './web-server.js';

const TOKEN = 't'.repeat(43);
const HOST = '127.0.0.1:5494';
let dir: string;
let app: ReturnType<typeof buildWebApp>;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'kimi-ts-web-app-'));
  const page = join(dir, 'page');
  await mkdir(join(page, 'assets'), { recursive: true });
  await writeFile(
    join(page, 'index.html'),
    '<!doctype html><script type="module" src="/assets/app.js"></script>',
  );
  await writeFile(join(page, 'assets', 'app.js'), 'console.log(1)');
  await writeFile(join(dir, 'secret.txt'), 'outside the page');
  const home = join(dir, 'home');
  const hosts = new SessionHosts(() => Promise.reject(new Error('no sessions in this test')), 1000);
  const context = { home, env: {}, defaultWorkDir: dir, directory: new SessionDirectory(home), hosts };
  const policy = accessPolicy({ bindHost: '127.0.0.1', port: 5494, token: TOKEN, lanOnly: true });
  app = buildWebApp(context, () => policy, page);
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('the page', () => {
  test('is served without the token, with the security headers; unknown paths get index.html', async () => {
    for (const path of ['/', '/sessions/abc']) {
      const response = await app.request(path, { headers: { host: HOST } });
      expect(response.status).toBe(200);
      expect(await response.text()).toContain('<script type="module"');
      const csp = response.headers.get('content-security-policy') ?? '';
      expect(csp).toContain("script-src 'self'");
      expect(csp).not.toContain('unsafe-inline');
      expect(csp).toContain("frame-ancestors 'none'");
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      expect(response.headers.get('referrer-policy')).toBe('no-referrer');
    }
    const script = await app.request('/assets/app.js', { headers: { host: HOST } });
    expect(script.headers.get('content-type')).toMatch(/javascript/);
  });

  test('never serves a file outside its folder', async () => {
    for (const path of [
      '/../secret.txt',
      '/%2e%2e/secret.txt',
      '/assets/..%2f..%2fsecret.txt',
      '//secret.txt',
    ]) {
      const response = await app.request(path, { headers: { host: HOST } });
      expect(await response.text()).not.toContain('outside the page');
    }
  });

  test('a rebound Host is refused even for the page; the API needs the token', async () => {
    expect((await app.request('/', { headers: { host: 'evil.example:5494' } })).status).toBe(403);
    expect((await app.request('/api/sessions', { headers: { host: HOST } })).status).toBe(401);
    const ok = await app.request('/api/sessions', {
      headers: { host: HOST, authorization: `Bearer ${TOKEN}` },
    });
    expect(ok.status).toBe(200);
    expect(await ok.json()).toEqual({ sessions: [] });
    const missing = await app.request('/api/sessions/nope', {
      headers: { host: HOST, authorization: `Bearer ${TOKEN}` },
    });
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({
      error: { code: 'session_not_found', message: 'There is no session with this id.' },
    });
  });
});
