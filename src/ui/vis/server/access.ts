import { randomBytes, timingSafeEqual } from 'node:crypto';
import { hostname, networkInterfaces } from 'node:os';

/**
 * Who may read a vis server: the holder of its token, through a Host naming this server (a DNS
 * rebinding page names another) and, when the browser says where a request comes from, an Origin of
 * this server (another site's page may not read a session). The same rules as `kimi-ts web`.
 */
export interface AccessRules {
  token: string;
  /** `host:port` values a request's Host header may carry, lower-case. */
  allowedHosts: ReadonlySet<string>;
}

export type AccessVerdict = { ok: true } | { ok: false; status: 401 | 403; reason: string };

export function newAccessToken(): string {
  return randomBytes(24).toString('base64url');
}

const LOOPBACK_NAMES = ['127.0.0.1', 'localhost', '[::1]'];

/** The Host values that name a server bound to `bindHost:port` (every local address when it binds all). */
export function allowedHostsFor(bindHost: string, port: number): Set<string> {
  const names = new Set(LOOPBACK_NAMES);
  names.add(bindHost.includes(':') && !bindHost.startsWith('[') ? `[${bindHost}]` : bindHost);
  if (bindHost === '0.0.0.0' || bindHost === '::') {
    names.add(hostname());
    for (const addresses of Object.values(networkInterfaces())) {
      for (const address of addresses ?? []) {
        names.add(address.family === 'IPv6' ? `[${address.address}]` : address.address);
      }
    }
  }
  return new Set([...names].map((name) => `${name.toLowerCase()}:${port}`));
}

export function isLoopbackHost(host: string): boolean {
  return host === '127.0.0.1' || host === 'localhost' || host === '::1' || host.startsWith('127.');
}

/**
 * Checks one request. `presentedToken` is what the request carried (an `Authorization: Bearer`
 * header or the `token` query parameter of the page's address).
 */
export function checkAccess(
  rules: AccessRules,
  request: { host: string | undefined; origin: string | undefined; presentedToken: string | undefined },
): AccessVerdict {
  const host = request.host?.toLowerCase();
  if (!host || !rules.allowedHosts.has(host)) {
    return { ok: false, status: 403, reason: 'This server does not answer to that Host.' };
  }
  if (request.origin !== undefined && request.origin !== 'null') {
    let originHost: string;
    try {
      const url = new URL(request.origin);
      originHost = url.protocol === 'http:' ? url.host.toLowerCase() : '';
    } catch {
      originHost = '';
    }
    if (!rules.allowedHosts.has(originHost)) {
      return { ok: false, status: 403, reason: 'Requests from other sites are refused.' };
    }
  } else if (request.origin === 'null') {
    return { ok: false, status: 403, reason: 'Requests from other sites are refused.' };
  }
  if (!request.presentedToken || !sameSecret(request.presentedToken, rules.token)) {
    return {
      ok: false,
      status: 401,
      reason: 'A valid token is required (open the address the server printed).',
    };
  }
  return { ok: true };
}

function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** The token of `Authorization: Bearer <token>`, if that is what the header holds. */
export function bearerToken(header: string | undefined): string | undefined {
  const match = header?.match(/^Bearer\s+(\S+)$/i);
  return match?.[1];
}
