import type { IncomingMessage } from 'node:http';
import type { Context, MiddlewareHandler } from 'hono';
import { type AccessPolicy, checkAccess, type RequestFacts } from './access.js';

/** Every error a local HTTP front end answers: JSON, a stable code, a message for people, no stack. */
export function jsonError(c: Context, status: number, code: string, message: string): Response {
  return c.json({ error: { code, message } }, status as 400);
}

/** The facts `checkAccess` needs from a Node request (a WebSocket upgrade, or any HTTP request). */
export function requestFacts(req: IncomingMessage): RequestFacts {
  const offered = req.headers['sec-websocket-protocol'];
  return {
    host: req.headers.host,
    origin: req.headers.origin,
    authorization: req.headers.authorization,
    subprotocols: offered === undefined ? undefined : offered.split(',').map((p) => p.trim()),
    remoteAddress: req.socket.remoteAddress,
  };
}

/** The Node request under a Hono context served by @hono/node-server. */
function nodeRequest(c: Context): IncomingMessage | undefined {
  return (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
}

/**
 * Checks Host, Origin, the peer's address and (when `needsToken`) the bearer token of every request
 * it guards; refused requests get `{error:{code,message}}` with 401 or 403.
 */
export function accessGuard(policy: AccessPolicy, needsToken: boolean): MiddlewareHandler {
  const checked: AccessPolicy = needsToken ? policy : { ...policy, token: null };
  return async (c, next) => {
    const incoming = nodeRequest(c);
    const facts: RequestFacts = incoming
      ? { ...requestFacts(incoming), subprotocols: undefined }
      : {
          host: c.req.header('host'),
          origin: c.req.header('origin'),
          authorization: c.req.header('authorization'),
        };
    const decision = checkAccess(checked, facts);
    if (!decision.ok) {
      if (decision.status === 401) c.header('WWW-Authenticate', 'Bearer');
      return jsonError(c, decision.status, decision.code, decision.message);
    }
    await next();
  };
}

/**
 * Headers on every answer: no inline script or foreign resources (CSP), no framing, no MIME sniffing,
 * no Referer (the token lives in the URL fragment, but a path may name a session).
 */
export function securityHeaders(): MiddlewareHandler {
  const csp = [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data: blob:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
  return async (c, next) => {
    await next();
    c.header('Content-Security-Policy', csp);
    c.header('X-Content-Type-Options', 'nosniff');
    c.header('Referrer-Policy', 'no-referrer');
    c.header('X-Frame-Options', 'DENY');
    c.header('Cross-Origin-Opener-Policy', 'same-origin');
    c.header('Cross-Origin-Resource-Policy', 'same-origin');
    if (c.req.path.startsWith('/api/')) c.header('Cache-Control', 'no-store');
  };
}
