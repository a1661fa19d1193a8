import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { chmod, lstat, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { isIP } from 'node:net';
import { hostname, networkInterfaces } from 'node:os';
import { dirname, join } from 'node:path';

/**
 * Who may talk to a local HTTP front end (`kimi-ts web`, `kimi-ts vis`): one bearer token, the Host
 * header (DNS rebinding), the Origin header (cross-site requests and WebSocket hijacking) and, with
 * `--lan-only`, the peer's address. Pure decisions over request facts, so the HTTP routes (Hono) and
 * the WebSocket upgrade (`ws`) check exactly the same thing.
 */

/** The WebSocket subprotocol a client must offer; the token travels as a second one (`bearer.<token>`). */
export const WIRE_SUBPROTOCOL = 'kimi-wire';
export const BEARER_SUBPROTOCOL_PREFIX = 'bearer.';

export interface AccessPolicy {
  /** The bearer token; null only under `--dangerously-omit-auth`. */
  readonly token: string | null;
  /** Host header values accepted, lower case, with the port (`127.0.0.1:5494`). */
  readonly allowedHosts: ReadonlySet<string>;
  /** Origins accepted (`http://127.0.0.1:5494`), besides none at all (a non-browser client). */
  readonly allowedOrigins: ReadonlySet<string>;
  /** Refuse peers outside loopback and private networks (`--lan-only`, the default). */
  readonly lanOnly: boolean;
}

/** What a request tells us about itself; headers as received (absent when missing). */
export interface RequestFacts {
  host?: string | undefined;
  origin?: string | undefined;
  authorization?: string | undefined;
  /** The WebSocket subprotocols the client offered (`Sec-WebSocket-Protocol`), if any. */
  subprotocols?: readonly string[] | undefined;
  remoteAddress?: string | undefined;
}

export type AccessDecision =
  | { ok: true }
  | { ok: false; status: 401 | 403; code: AccessErrorCode; message: string };

export type AccessErrorCode = 'unauthorized' | 'bad_host' | 'bad_origin' | 'forbidden_address';

/** Decides one request. The token is compared in constant time. */
export function checkAccess(policy: AccessPolicy, facts: RequestFacts): AccessDecision {
  if (policy.lanOnly && facts.remoteAddress !== undefined && !isPrivateAddress(facts.remoteAddress))
    return refuse(403, 'forbidden_address', 'Only clients on loopback or a private network may connect.');
  const host = facts.host?.trim().toLowerCase();
  if (host === undefined || !policy.allowedHosts.has(host))
    return refuse(403, 'bad_host', 'The Host header does not name this server.');
  if (facts.origin !== undefined && !policy.allowedOrigins.has(facts.origin.trim().toLowerCase()))
    return refuse(403, 'bad_origin', 'Requests from this origin are not allowed.');
  if (policy.token !== null && !tokensEqual(presentedToken(facts), policy.token))
    return refuse(401, 'unauthorized', 'A valid bearer token is required.');
  return { ok: true };
}

/** The token a request carries: `Authorization: Bearer …`, or a `bearer.…` WebSocket subprotocol. */
export function presentedToken(facts: RequestFacts): string | null {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(facts.authorization ?? '');
  if (match) return match[1]!;
  const offered = facts.subprotocols?.find((p) => p.startsWith(BEARER_SUBPROTOCOL_PREFIX));
  return offered === undefined ? null : offered.slice(BEARER_SUBPROTOCOL_PREFIX.length);
}

/** Compares without leaking, through timing, how much of the token was right (or its length). */
export function tokensEqual(presented: string | null, expected: string): boolean {
  if (presented === null) return false;
  const a = createHash('sha256').update(presented, 'utf8').digest();
  const b = createHash('sha256').update(expected, 'utf8').digest();
  return timingSafeEqual(a, b);
}

function refuse(status: 401 | 403, code: AccessErrorCode, message: string): AccessDecision {
  return { ok: false, status, code, message };
}

const LOOPBACK_NAMES = ['localhost', '127.0.0.1', '[::1]'];
const WILDCARD_HOSTS = new Set(['0.0.0.0', '::', '[::]', '']);

export function isLoopbackHost(host: string): boolean {
  const h = host.toLowerCase().replace(/^\[|\]$/g, '');
  return h === 'localhost' || h === '::1' || /^127\.\d+\.\d+\.\d+$/.test(h);
}

export function isWildcardHost(host: string): boolean {
  return WILDCARD_HOSTS.has(host);
}

/** Loopback, RFC 1918, link-local, and IPv6 unique-local addresses (and IPv4-mapped forms of them). */
export function isPrivateAddress(address: string): boolean {
  const a = address.toLowerCase().replace(/^::ffff:/, '');
  if (isIP(a) === 4) {
    const [x, y] = a.split('.').map(Number) as [number, number];
    return (
      x === 127 ||
      x === 10 ||
      (x === 172 && y >= 16 && y <= 31) ||
      (x === 192 && y === 168) ||
      (x === 169 && y === 254)
    );
  }
  if (isIP(a) === 6) return a === '::1' || /^f[cd]/.test(a) || /^fe[89ab]/.test(a);
  return false;
}

/** How a host is written in a URL or a Host header (IPv6 in brackets). */
export function urlHost(host: string): string {
  return isIP(host) === 6 ? `[${host}]` : host;
}

export interface PolicyOptions {
  /** The address the server is bound to (`127.0.0.1`, `0.0.0.0`, a LAN address, a name). */
  bindHost: string;
  /** The port it actually listens on. */
  port: number;
  token: string | null;
  /** `--allowed-origins`: more origins a page may come from (e.g. a dev server). */
  extraOrigins?: readonly string[] | undefined;
  lanOnly: boolean;
}

/**
 * The policy of a server bound to `bindHost:port`: the Host names it answers to are the bound one,
 * the loopback names when it is reachable on loopback, and every address of this machine (and its
 * host name) when bound to all interfaces. Its own origins are those names over http.
 */
export function accessPolicy(options: PolicyOptions): AccessPolicy {
  const names = new Set<string>();
  const { bindHost, port } = options;
  if (isWildcardHost(bindHost)) {
    for (const name of LOOPBACK_NAMES) names.add(name);
    names.add(hostname().toLowerCase());
    for (const list of Object.values(networkInterfaces()))
      for (const info of list ?? []) names.add(urlHost(info.address.toLowerCase().replace(/%.*$/, '')));
  } else {
    names.add(urlHost(bindHost.toLowerCase()));
    if (isLoopbackHost(bindHost)) for (const name of LOOPBACK_NAMES) names.add(name);
  }
  const allowedHosts = new Set([...names].map((name) => `${name}:${port}`));
  const allowedOrigins = new Set([...allowedHosts].map((host) => `http://${host}`));
  for (const origin of options.extraOrigins ?? []) {
    const trimmed = origin.trim().toLowerCase().replace(/\/+$/, '');
    if (trimmed !== '') allowedOrigins.add(trimmed);
  }
  return { token: options.token, allowedHosts, allowedOrigins, lanOnly: options.lanOnly };
}

/** A server that must not start as asked (a network bind without a token, a bad token). */
export class AccessSetupError extends Error {
  override name = 'AccessSetupError';
}

/**
 * Refuses what would leave the server open: a token that is empty or whitespace, and (unless the
 * user said `--dangerously-omit-auth`) no token on an address other than loopback.
 */
export function assertSafeBind(options: { bindHost: string; token: string | null; omitAuth: boolean }): void {
  if (options.token !== null && !/^[A-Za-z0-9._~+/=-]{16,512}$/.test(options.token))
    throw new AccessSetupError(
      'The auth token must be 16 to 512 characters of letters, digits and ._~+/=- (no spaces).',
    );
  if (options.token === null && !options.omitAuth && !isLoopbackHost(options.bindHost))
    throw new AccessSetupError(
      `Refusing to serve ${options.bindHost} without an auth token: anyone on the network could drive the agent.`,
    );
}

/** Where `kimi-ts web` and `kimi-ts vis` keep their token: one token for both, under the home. */
export function tokenFile(home: string): string {
  return join(home, 'http', 'token');
}

/** A fresh token: 32 random bytes, base64url (43 characters). */
export function generateToken(): string {
  return randomBytes(32).toString('base64url');
}

/**
 * The token kept at `path` (mode 0600, in a 0700 folder), made on first use and reused on restart, so
 * an open page keeps working across a restart. A file that is not a plain file, not ours-only
 * (group/other may read it) or not a valid token is replaced by a new token. Delete the file to rotate.
 */
export async function loadOrCreateToken(path: string): Promise<string> {
  await mkdir(dirname(path), { recursive: true, mode: 0o700 });
  try {
    const info = await lstat(path);
    if (info.isFile() && (info.mode & 0o077) === 0) {
      const text = (await readFile(path, 'utf8')).trim();
      if (/^[A-Za-z0-9_-]{43}$/.test(text)) return text;
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const token = generateToken();
  // 'w' over a symlink would follow it: a symlink (or anything odd) was refused above, so replace it.
  await rm(path, { force: true });
  await writeFile(path, `${token}\n`, { mode: 0o600, flag: 'wx' });
  await chmod(path, 0o600);
  return token;
}
