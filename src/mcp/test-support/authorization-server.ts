import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface AuthorizationServer {
  readonly url: string;
  /** Whether `token` is a live access token. */
  accepts(token: string): boolean;
  /** Makes every access token issued so far invalid (as if they expired); refresh tokens stay valid. */
  expireAccessTokens(): void;
  /** Makes every refresh token invalid too. */
  revokeRefreshTokens(): void;
  readonly counts: {
    registrations: number;
    authorizations: number;
    codeExchanges: number;
    refreshes: number;
  };
  close(): Promise<void>;
}

interface PendingCode {
  clientId: string;
  redirectUri: string;
  challenge: string;
}

/**
 * A minimal OAuth 2.1 authorization server on the loopback interface, enough for the MCP
 * authorization flow: metadata discovery (RFC 8414), dynamic client registration (RFC 7591), an
 * authorize endpoint that consents at once and redirects back with a code, and a token endpoint
 * with PKCE (S256) checks and refresh tokens.
 */
export async function startAuthorizationServer(): Promise<AuthorizationServer> {
  const clients = new Map<string, string[]>();
  const codes = new Map<string, PendingCode>();
  const accessTokens = new Set<string>();
  const refreshTokens = new Set<string>();
  const counts = { registrations: 0, authorizations: 0, codeExchanges: 0, refreshes: 0 };
  const sockets = new Set<Socket>();
  let base = '';

  const json = (res: ServerResponse, status: number, body: unknown): void => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  const issueTokens = (res: ServerResponse): void => {
    const access = `at-${randomBytes(8).toString('hex')}`;
    const refresh = `rt-${randomBytes(8).toString('hex')}`;
    accessTokens.add(access);
    refreshTokens.add(refresh);
    json(res, 200, { access_token: access, token_type: 'Bearer', expires_in: 3600, refresh_token: refresh });
  };

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', base);
    if (url.pathname === '/.well-known/oauth-authorization-server') {
      return json(res, 200, {
        issuer: base,
        authorization_endpoint: `${base}/authorize`,
        token_endpoint: `${base}/token`,
        registration_endpoint: `${base}/register`,
        response_types_supported: ['code'],
        grant_types_supported: ['authorization_code', 'refresh_token'],
        code_challenge_methods_supported: ['S256'],
        token_endpoint_auth_methods_supported: ['none'],
      });
    }
    if (url.pathname === '/register' && req.method === 'POST') {
      const metadata = JSON.parse(await readBody(req)) as { redirect_uris?: string[] };
      const clientId = `client-${randomBytes(6).toString('hex')}`;
      clients.set(clientId, metadata.redirect_uris ?? []);
      counts.registrations++;
      return json(res, 201, {
        ...metadata,
        client_id: clientId,
        client_id_issued_at: Math.floor(Date.now() / 1000),
      });
    }
    if (url.pathname === '/authorize') {
      const clientId = url.searchParams.get('client_id') ?? '';
      const redirectUri = url.searchParams.get('redirect_uri') ?? '';
      if (!clients.get(clientId)?.includes(redirectUri)) return json(res, 400, { error: 'invalid_request' });
      if (url.searchParams.get('code_challenge_method') !== 'S256')
        return json(res, 400, { error: 'invalid_request' });
      const code = `code-${randomBytes(6).toString('hex')}`;
      codes.set(code, { clientId, redirectUri, challenge: url.searchParams.get('code_challenge') ?? '' });
      counts.authorizations++;
      const back = new URL(redirectUri);
      back.searchParams.set('code', code);
      const state = url.searchParams.get('state');
      if (state) back.searchParams.set('state', state);
      res.writeHead(302, { location: back.href });
      res.end();
      return;
    }
    if (url.pathname === '/token' && req.method === 'POST') {
      const form = new URLSearchParams(await readBody(req));
      if (form.get('grant_type') === 'authorization_code') {
        const pending = codes.get(form.get('code') ?? '');
        codes.delete(form.get('code') ?? '');
        const verifier = form.get('code_verifier') ?? '';
        const challenge = createHash('sha256').update(verifier).digest('base64url');
        if (!pending || pending.clientId !== form.get('client_id') || pending.challenge !== challenge) {
          return json(res, 400, { error: 'invalid_grant' });
        }
        counts.codeExchanges++;
        return issueTokens(res);
      }
      if (form.get('grant_type') === 'refresh_token') {
        const refresh = form.get('refresh_token') ?? '';
        if (!refreshTokens.delete(refresh) || !clients.has(form.get('client_id') ?? '')) {
          return json(res, 400, { error: 'invalid_grant' });
        }
        counts.refreshes++;
        return issueTokens(res);
      }
      return json(res, 400, { error: 'unsupported_grant_type' });
    }
    res.writeHead(404).end();
  }

  const server: Server = createServer((req, res) => {
    void handle(req, res).catch(() => res.destroy());
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: base,
    accepts: (token) => accessTokens.has(token),
    expireAccessTokens: () => accessTokens.clear(),
    revokeRefreshTokens: () => refreshTokens.clear(),
    counts,
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** Plays the browser: follows the authorization page's redirect back to the loopback callback. */
export async function followAuthorization(authorizationUrl: string): Promise<boolean> {
  const page = await fetch(authorizationUrl, { redirect: 'manual' });
  const location = page.headers.get('location');
  if (!location) return false;
  await (await fetch(location)).text();
  return true;
}
