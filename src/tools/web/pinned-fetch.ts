import type { IncomingMessage } from 'node:http';
import { createRequire } from 'node:module';
import type { LookupFunction } from 'node:net';
import { Readable } from 'node:stream';
import type { ResolvedAddress } from '../../policy/index.js';

/** What `boundedFetch` sends a request with: global `fetch`, or `pinnedFetch`. */
export type FetchLike = (
  url: string,
  init: {
    method: string;
    headers: Record<string, string>;
    body?: string | undefined;
    /** Honoured by global fetch; `pinnedFetch` never follows a redirect (as with `manual`). */
    redirect?: 'follow' | 'manual' | 'error';
    signal: AbortSignal;
  },
) => Promise<Response>;

export class UncheckedHostError extends Error {
  override name = 'UncheckedHostError';
  constructor(readonly host: string) {
    super(`no checked address for the host \`${host}\``);
  }
}

/**
 * A fetch that connects only to the addresses a check saw (`addressesOf(host)`), never to what a
 * new lookup would give: the DNS rebinding window between the policy's decision and the connection
 * is closed. The URL's name stays the Host header and the TLS server name (SNI and certificate
 * check), so only where the socket goes is fixed. A host nothing was checked for is refused.
 * Redirects are not followed (the caller judges each one).
 */
export function pinnedFetch(
  addressesOf: (host: string) => readonly ResolvedAddress[] | undefined,
): FetchLike {
  return async (url, init) => {
    const target = new URL(url);
    const host = bareHost(target.hostname);
    const addresses = addressesOf(host);
    if (!addresses || addresses.length === 0) throw new UncheckedHostError(host);
    const send = httpRequestFor(target.protocol);
    return new Promise<Response>((resolve, reject) => {
      const lookup: LookupFunction = (_name, options, callback) => {
        const all = (options as { all?: boolean }).all === true;
        if (all) {
          (callback as (e: null, list: { address: string; family: number }[]) => void)(
            null,
            addresses.map((a) => ({ address: a.address, family: a.family })),
          );
          return;
        }
        const family = (options as { family?: number }).family;
        const first = addresses.find((a) => !family || a.family === family) ?? addresses[0]!;
        callback(null, first.address, first.family);
      };
      const req = send(target, {
        method: init.method,
        headers: init.headers,
        signal: init.signal,
        lookup,
        // A fresh connection per request: a pooled socket could lead to an address checked for
        // another call.
        agent: false,
      });
      req.once('error', reject);
      req.once('response', (res) => resolve(toResponse(res, init.method)));
      req.end(init.body);
    });
  };
}

/**
 * Node's HTTP client, loaded on the first fetch of a page rather than with the CLI (most runs fetch
 * none). A require, not `import()`: the bundle runs in a node:vm script, which has no `import()`.
 */
function httpRequestFor(protocol: string): typeof import('node:http').request {
  const load = createRequire(import.meta.url);
  return protocol === 'https:'
    ? (load('node:https') as typeof import('node:https')).request
    : (load('node:http') as typeof import('node:http')).request;
}

function bareHost(hostname: string): string {
  return hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
}

const NULL_BODY_STATUSES = new Set([101, 204, 205, 304]);

function toResponse(res: IncomingMessage, method: string): Response {
  const headers = new Headers();
  for (let i = 0; i + 1 < res.rawHeaders.length; i += 2) {
    try {
      headers.append(res.rawHeaders[i]!, res.rawHeaders[i + 1]!);
    } catch {
      // A header value fetch would refuse too: left out.
    }
  }
  const status = res.statusCode ?? 500;
  const empty = NULL_BODY_STATUSES.has(status) || method === 'HEAD';
  if (empty) res.resume();
  const body = empty ? null : (Readable.toWeb(res) as ReadableStream<Uint8Array>);
  return new Response(body, { status, statusText: res.statusMessage ?? '', headers });
}
