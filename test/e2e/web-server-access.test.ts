import { stat } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { collect } from '../support/run-cli.js';
import { useScriptedCli } from '../support/scripted-cli.js';
import {
  RefusedUpgrade,
  startWebServer,
  type WebServerProcess,
  WebWireClient,
} from '../support/web-server-client.js';

const cli = useScriptedCli();

/** A raw HTTP request, so Host can be set to anything (fetch refuses to). */
function raw(
  server: WebServerProcess,
  path: string,
  headers: Record<string, string>,
  method = 'GET',
  body?: Buffer,
): Promise<{ status: number; body: string; headers: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port: server.port, path, method, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8').on('data', (d: string) => {
        text += d;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text, headers: res.headers }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

const ROUTES: [string, string][] = [
  ['GET', '/api/sessions'],
  ['POST', '/api/sessions'],
  ['GET', '/api/sessions/abc'],
  ['PATCH', '/api/sessions/abc'],
  ['DELETE', '/api/sessions/abc'],
  ['POST', '/api/sessions/abc/fork'],
  ['GET', '/api/sessions/abc/export'],
  ['GET', '/api/config'],
  ['GET', '/api/work-dirs'],
  ['GET', '/api/no-such-route'],
];

async function expectRefusedUpgrade(
  connecting: Promise<unknown>,
  status: number,
  code: string,
): Promise<void> {
  const error = await connecting.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(RefusedUpgrade);
  expect((error as RefusedUpgrade).status).toBe(status);
  const body = JSON.parse((error as RefusedUpgrade).body) as { error: { code: string } };
  if (typeof code === 'string') expect(body.error.code).toBe(code);
  else expect(body.error.code).toMatch(code);
}

describe('kimi-ts web: access', () => {
  test('no token, a wrong token, a foreign Origin, a foreign Host: refused on every route and the upgrade', async () => {
    const { sandbox } = await cli.setup([]);
    const server = await startWebServer(sandbox);
    try {
      const host = `127.0.0.1:${server.port}`;
      for (const [method, path] of ROUTES) {
        for (const token of [null, 'wrong-token-wrong-token-wrong', `${server.token}x`]) {
          const response = await server.api(path, { method, token });
          expect(response.status, `${method} ${path} with ${token}`).toBe(401);
          const body = (await response.json()) as { error: { code: string; message: string } };
          expect(body.error.code).toBe('unauthorized');
          expect(JSON.stringify(body)).not.toContain(server.token);
        }
        const foreignOrigin = await raw(
          server,
          path,
          { Host: host, Origin: 'http://evil.example', Authorization: `Bearer ${server.token}` },
          method,
        );
        expect(foreignOrigin.status, `${method} ${path} from evil origin`).toBe(403);
        expect(JSON.parse(foreignOrigin.body).error.code).toBe('bad_origin');
        const rebound = await raw(
          server,
          path,
          { Host: 'evil.example', Authorization: `Bearer ${server.token}` },
          method,
        );
        expect(rebound.status).toBe(403);
        expect(JSON.parse(rebound.body).error.code).toBe('bad_host');
      }
      // The page itself is refused under a rebound Host too.
      expect((await raw(server, '/', { Host: `evil.example:${server.port}` })).status).toBe(403);
      // With the token, its own Origin and Host: fine (localhost names the same server).
      const ok = await raw(server, '/api/sessions', {
        Host: `localhost:${server.port}`,
        Origin: `http://localhost:${server.port}`,
        Authorization: `Bearer ${server.token}`,
      });
      expect(ok.status).toBe(200);
      expect(ok.headers['content-security-policy']).toContain("frame-ancestors 'none'");
      expect(ok.headers['referrer-policy']).toBe('no-referrer');
      expect(ok.headers['x-content-type-options']).toBe('nosniff');

      // The WebSocket upgrade: same rules, refused before any upgrade.
      const sessionPath = 'some-session';
      await expectRefusedUpgrade(
        WebWireClient.connect(server, sessionPath, { token: null }),
        401,
        'unauthorized',
      );
      await expectRefusedUpgrade(
        WebWireClient.connect(server, sessionPath, { token: 'nope-nope-nope-nope-nope' }),
        401,
        'unauthorized',
      );
      await expectRefusedUpgrade(
        WebWireClient.connect(server, sessionPath, { headers: { Origin: 'http://evil.example' } }),
        403,
        'bad_origin',
      );
      await expectRefusedUpgrade(
        WebWireClient.connect(server, sessionPath, { headers: { Host: 'evil.example' } }),
        403,
        'bad_host',
      );
      // The token in a query string is not a way in.
      await expectRefusedUpgrade(
        WebWireClient.connect(server, `${sessionPath}?token=${server.token}`, { token: null }),
        401,
        'unauthorized',
      );
    } finally {
      await server.stop();
    }
  });

  test('ids with .. or an absolute path, a 10 MB body, bad JSON: clear errors, nothing outside the sessions folder', async () => {
    const { sandbox } = await cli.setup([]);
    const server = await startWebServer(sandbox);
    try {
      for (const id of ['..', '..%2F..%2Fetc', '%2Fetc%2Fpasswd', 'a..b', '.hidden', '%00x']) {
        const response = await server.api(`/api/sessions/${id}`);
        expect([400, 404]).toContain(response.status);
        const text = await response.text();
        expect(text).not.toContain('root:');
        expect(JSON.parse(text)).toHaveProperty('error.code');
        // `..` segments are resolved by the client (no such route); the rest are not session ids.
        await expectRefusedUpgrade(WebWireClient.connect(server, id), 404, /^(session_)?not_found$/);
      }
      const big = Buffer.alloc(10 * 1024 * 1024, 'a');
      const tooLarge = await raw(
        server,
        '/api/sessions',
        {
          Host: `127.0.0.1:${server.port}`,
          Authorization: `Bearer ${server.token}`,
          'Content-Type': 'application/json',
        },
        'POST',
        big,
      ).catch((error: NodeJS.ErrnoException) => ({
        status: error.code === 'EPIPE' || error.code === 'ECONNRESET' ? 413 : 0,
        body: '{}',
        headers: {},
      }));
      expect(tooLarge.status).toBe(413);
      const badJson = await server.api('/api/sessions', {
        method: 'POST',
        body: '{"work_dir":',
        headers: { 'Content-Type': 'application/json' },
      });
      expect(badJson.status).toBe(400);
      expect(((await badJson.json()) as { error: { code: string } }).error.code).toBe('invalid_json');
      for (const body of [
        { work_dir: 'relative/dir' },
        { work_dir: '/no/such/dir' },
        { work_dir: sandbox.workDir, extra: 1 },
      ]) {
        const response = await server.api('/api/sessions', {
          method: 'POST',
          body: JSON.stringify(body),
          headers: { 'Content-Type': 'application/json' },
        });
        expect(response.status).toBe(400);
        const text = await response.text();
        expect(text).not.toMatch(/at .*\.js:\d+/); // no stack trace
      }
    } finally {
      await server.stop();
    }
  });

  test('the token file is 0600 and reused on restart; an unsafe bind refuses to start', async () => {
    const { sandbox } = await cli.setup([]);
    const first = await startWebServer(sandbox);
    await first.stop();
    const info = await stat(join(sandbox.home, 'http', 'token'));
    expect(info.mode & 0o777).toBe(0o600);
    const second = await startWebServer(sandbox);
    expect(second.token).toBe(first.token);
    await second.stop();

    const empty = await collect(
      sandbox.spawn(['web', '--no-open', '--port', '0', '--host', '0.0.0.0', '--auth-token', '']),
    );
    expect(empty.code).toBe(1);
    expect(empty.stderr).toMatch(/auth token/i);
    expect(empty.stdout).not.toContain('Open:');
    const short = await collect(
      sandbox.spawn(['web', '--no-open', '--port', '0', '--network', '--auth-token', 'short']),
    );
    expect(short.code).toBe(1);
  });

  test('--dangerously-omit-auth serves without a token and warns loudly', async () => {
    const { sandbox } = await cli.setup([]);
    const server = await startWebServer(sandbox, ['--dangerously-omit-auth']);
    try {
      expect(server.token).toBe('');
      expect(server.stderr()).toMatch(/WARNING: --dangerously-omit-auth/);
      expect((await server.api('/api/sessions', { token: null })).status).toBe(200);
    } finally {
      await server.stop();
    }
  });
});
