import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { SecretRegistry } from '../../policy/secrets.js';
import { McpManager } from '../mcp-manager.js';
import {
  type AuthorizationServer,
  followAuthorization,
  startAuthorizationServer,
} from '../test-support/authorization-server.js';
import { type HttpMcpServer, startHttpMcpServer } from '../test-support/http-mcp-server.js';
import { callTool, outputText, toolsetWithBuiltinEcho } from '../test-support/toolset-fixture.js';
import { authorizeServer } from './authorize.js';
import { OAuthStore } from './oauth-store.js';
import { startRedirectReceiver } from './redirect-receiver.js';

let home: string;
let store: OAuthStore;
/** What the session's registry hears from the store (#12: MCP OAuth tokens are secrets). */
const secrets = new SecretRegistry();
let authServer: AuthorizationServer;
let mcpServer: HttpMcpServer;
const managers: McpManager[] = [];

beforeAll(async () => {
  home = await mkdtemp(join(tmpdir(), 'kimi-ts-mcp-oauth-'));
  store = OAuthStore.forHome(home, (value, source) => secrets.add(value, source));
  authServer = await startAuthorizationServer();
  mcpServer = await startHttpMcpServer({
    acceptsToken: (token) => authServer.accepts(token),
    authorizationServer: authServer.url,
  });
});
afterAll(async () => {
  await Promise.all([authServer?.close(), mcpServer?.close()]);
  await rm(home, { recursive: true, force: true });
});
afterEach(async () => {
  await Promise.all(managers.splice(0).map((manager) => manager.close()));
});

async function load() {
  const { toolset } = toolsetWithBuiltinEcho();
  const manager = new McpManager({
    servers: {
      secure: { kind: 'remote', url: mcpServer.url, headers: {}, transport: 'auto', auth: { type: 'oauth' } },
    },
    oauthStore: store,
  });
  managers.push(manager);
  manager.start(toolset);
  await manager.waitForLoading();
  return { manager, toolset };
}

// The steps build on each other: authorize once, then connect, refresh, lose the authorization.
describe('OAuth for remote servers', () => {
  it('shows a server without stored tokens as unauthorized, with the command to run', async () => {
    const { manager } = await load();
    expect(manager.statusSnapshot().servers[0]?.status).toBe('unauthorized');
    expect(manager.problems()[0]?.message).toBe(
      'MCP server "secure" is not authorized: no authorization is stored yet; run `kimi-ts mcp auth secure` to authorize',
    );
    expect(mcpServer.authorizations).toEqual([]);
  });

  it('runs the browser flow: discovery, registration, consent, code exchange; keeps tokens private', async () => {
    const log: string[] = [];
    await authorizeServer({
      serverUrl: mcpServer.url,
      store,
      log: (line) => log.push(line),
      openUrl: followAuthorization,
    });

    expect(authServer.counts).toMatchObject({ registrations: 1, authorizations: 1, codeExchanges: 1 });
    expect(log[0]).toMatch(
      new RegExp(`^Opening the authorization page in your browser:\\n  ${authServer.url}/authorize\\?`),
    );
    const record = await store.read(mcpServer.url);
    expect(record.tokens?.access_token).toMatch(/^at-/);
    expect(record.redirect_url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);

    expect((await stat(store.dir)).mode & 0o777).toBe(0o700);
    const [file] = await readdir(store.dir);
    expect((await stat(join(store.dir, file!))).mode & 0o777).toBe(0o600);
  });

  it('connects with the stored token', async () => {
    const { manager, toolset } = await load();
    expect(manager.statusSnapshot().servers[0]?.status).toBe('connected');
    const token = (await store.read(mcpServer.url)).tokens?.access_token;
    expect(outputText(await callTool(toolset, 'whoami'))).toBe(`token=${token}`);
  });

  it('refreshes an expired token with the stored client, without registering again', async () => {
    const before = (await store.read(mcpServer.url)).tokens?.access_token;
    authServer.expireAccessTokens();
    const { manager, toolset } = await load();
    expect(manager.statusSnapshot().servers[0]?.status).toBe('connected');
    expect(authServer.counts).toMatchObject({ registrations: 1, refreshes: 1 });
    const after = (await store.read(mcpServer.url)).tokens?.access_token;
    expect(after).not.toBe(before);
    const answer = outputText(await callTool(toolset, 'whoami'));
    expect(answer).toBe(`token=${after}`);
    // Both the token loaded before and the refreshed one are secrets of the session.
    expect(secrets.redact(`${answer} ${before}`)).toBe('token=[redacted] [redacted]');
    expect(secrets.findIn(after!)?.source).toMatch(/^mcp http:\/\/127\.0\.0\.1:\d+.* oauth access_token$/);
  });

  it('turns to unauthorized when the token cannot be renewed', async () => {
    authServer.expireAccessTokens();
    authServer.revokeRefreshTokens();
    const { manager } = await load();
    expect(manager.statusSnapshot().servers[0]?.status).toBe('unauthorized');
    expect(manager.problems()[0]?.message).toMatch(/run `kimi-ts mcp auth secure` to authorize$/);
  });

  it('authorizes again on the same loopback port with the client it registered before', async () => {
    await authorizeServer({
      serverUrl: mcpServer.url,
      store,
      log: () => undefined,
      openUrl: followAuthorization,
    });
    expect(authServer.counts).toMatchObject({ registrations: 1, authorizations: 2 });
    const { manager } = await load();
    expect(manager.statusSnapshot().servers[0]?.status).toBe('connected');
  });

  it('forgets everything on clear', async () => {
    expect(await store.clear(mcpServer.url)).toBe(true);
    expect(await store.hasTokens(mcpServer.url)).toBe(false);
    expect(await store.clear(mcpServer.url)).toBe(false);
  });
});

describe('the redirect receiver', () => {
  it('refuses a redirect whose state does not match', async () => {
    const receiver = await startRedirectReceiver();
    try {
      const refused = expect(
        receiver.waitForCode({ expectedState: () => 'expected', timeoutMs: 5_000 }),
      ).rejects.toThrow(/different state/);
      await (await fetch(`${receiver.url}?code=abc&state=forged`)).text();
      await refused;
    } finally {
      await receiver.close();
    }
  });

  it('passes on the authorization server’s refusal', async () => {
    const receiver = await startRedirectReceiver();
    try {
      const refused = expect(
        receiver.waitForCode({ expectedState: () => undefined, timeoutMs: 5_000 }),
      ).rejects.toThrow('the authorization server refused: access_denied: user said no');
      const page = await fetch(`${receiver.url}?error=access_denied&error_description=user+said+no`);
      expect(page.status).toBe(400);
      await refused;
    } finally {
      await receiver.close();
    }
  });

  it('stops waiting when cancelled', async () => {
    const receiver = await startRedirectReceiver();
    const controller = new AbortController();
    try {
      const waiting = receiver.waitForCode({
        expectedState: () => undefined,
        signal: controller.signal,
        timeoutMs: 60_000,
      });
      controller.abort(new Error('user pressed Ctrl-C'));
      await expect(waiting).rejects.toThrow('user pressed Ctrl-C');
    } finally {
      await receiver.close();
    }
  });
});
