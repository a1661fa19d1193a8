import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseModelsList, removeManagedConfig, writeManagedConfig } from './managed-config.js';
import { needsRefresh, OAuthTokenSource } from './oauth-token-source.js';
import { credentialsFile, readTokens, writeTokens } from './token-store.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'kimi-ts-auth-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const tokens = (expiresAt: number, expiresIn: number) => ({
  access_token: 'a',
  refresh_token: 'r',
  expires_at: expiresAt,
  expires_in: expiresIn,
  scope: '',
  token_type: 'Bearer',
});

describe('OAuth tokens', () => {
  it.each([
    ['an hour left of an hour', 3600, 3600, false],
    ['29 minutes left of an hour (under half)', 1740, 3600, true],
    ['4 minutes left of 5 (under the 300 s floor)', 240, 300, true],
    ['no expiry known', null, 0, false],
  ])('refreshes when %s: %s', (_name, left, lifetime, expected) => {
    const now = 1_000_000;
    expect(needsRefresh(tokens(left === null ? 0 : now + left, lifetime), now)).toBe(expected);
  });

  it('stores tokens for the user alone, under a name the key cannot escape', async () => {
    const file = credentialsFile(dir, 'oauth/../../kimi-code');
    expect(file).toBe(join(dir, 'credentials', 'kimi-code.json'));
    await writeTokens(file, tokens(5, 5));
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect((await stat(join(dir, 'credentials'))).mode & 0o777).toBe(0o700);
    expect(await readTokens(file)).toEqual(tokens(5, 5));
  });
});

describe('the managed provider in the config', () => {
  it('is added beside the user’s own tables and removed again', async () => {
    const file = join(dir, 'config.toml');
    await writeFile(
      file,
      'default_model = "mine"\n[providers.own]\ntype = "kimi"\n[models.mine]\nprovider = "own"\nmodel = "m"\nmax_context_size = 10\n',
    );
    const models = parseModelsList({ data: [{ id: 'k2', context_length: 1000, supports_reasoning: true }] });
    expect(models).toEqual([{ id: 'k2', contextLength: 1000, capabilities: ['thinking'] }]);
    expect(await writeManagedConfig(file, 'https://api.test/v1', models ?? [])).toBe('mine');
    const written = await readFile(file, 'utf8');
    expect(written).toContain('[providers."managed:kimi-code"]');
    expect(written).toContain('[models."kimi-code/k2"]');
    expect(await removeManagedConfig(file)).toBe(true);
    const after = await readFile(file, 'utf8');
    expect(after).not.toContain('managed:kimi-code');
    expect(after).toContain('default_model = "mine"');
    expect(await removeManagedConfig(file)).toBe(false);
  });
});

/** A token endpoint on loopback; `answer` decides each refresh. */
async function tokenServer(
  answer: (refreshToken: string) => Promise<[number, unknown]>,
): Promise<{ server: Server; url: string; calls: string[] }> {
  const calls: string[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => {
      body += chunk.toString();
    });
    req.on('end', async () => {
      const refresh = new URLSearchParams(body).get('refresh_token') ?? '';
      calls.push(refresh);
      const [status, json] = await answer(refresh);
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(json));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, calls };
}

describe('OAuthTokenSource', () => {
  it('refreshes a token about to expire once, however many ask at the same time', async () => {
    const file = credentialsFile(dir, 'oauth/kimi-code');
    await writeTokens(file, {
      ...tokens(Date.now() / 1000 + 10, 3600),
      access_token: 'old',
      refresh_token: 'r1',
    });
    const { server, url, calls } = await tokenServer(async () => [
      200,
      { access_token: 'new', refresh_token: 'r2', expires_in: 3600 },
    ]);
    try {
      const source = new OAuthTokenSource(dir, 'oauth/kimi-code', { KIMI_CODE_OAUTH_HOST: url });
      expect(await Promise.all([source.accessToken(), source.accessToken()])).toEqual(['new', 'new']);
      expect(calls).toEqual(['r1']);
      expect(await readTokens(file)).toMatchObject({ access_token: 'new', refresh_token: 'r2' });
      expect((await stat(file)).mode & 0o777).toBe(0o600);
      expect(await source.accessToken()).toBe('new');
      expect(calls).toHaveLength(1);
    } finally {
      server.close();
    }
  });

  it('takes the tokens another process stored when its own refresh token was used up', async () => {
    const file = credentialsFile(dir, 'oauth/kimi-code');
    await writeTokens(file, {
      ...tokens(Date.now() / 1000 + 3600, 3600),
      access_token: 'rejected',
      refresh_token: 'r1',
    });
    const { server, url } = await tokenServer(async () => {
      // The other process refreshed first: its tokens are in the file, ours is spent.
      await writeTokens(file, {
        ...tokens(Date.now() / 1000 + 3600, 3600),
        access_token: 'theirs',
        refresh_token: 'r2',
      });
      return [400, { error: 'invalid_grant' }];
    });
    try {
      const source = new OAuthTokenSource(dir, 'oauth/kimi-code', { KIMI_CODE_OAUTH_HOST: url });
      expect(await source.forceRefresh('rejected')).toBe('theirs');
    } finally {
      server.close();
    }
  });
});
