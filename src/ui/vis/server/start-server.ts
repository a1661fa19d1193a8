import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createAdaptorServer } from '@hono/node-server';
import {
  type AccessPolicy,
  accessPolicy,
  assertSafeBind,
  loadOrCreateToken,
  tokenFile,
  urlHost,
} from '../../http/access.js';
import { readPageHtml } from './page-file.js';
import type { ViewableSessions } from './viewable-sessions.js';
import { createVisApp } from './vis-app.js';

/** Ports tried after the asked one when it is taken (5495 → 5504, as Kimi CLI's vis). */
const PORT_TRIES = 10;

export interface RunningVisServer {
  url: string;
  token: string;
  port: number;
  close(): Promise<void>;
}

/**
 * Starts the vis server on `host`, on `port` or the next free one of the ten. Its token is the one
 * `kimi-ts web` uses (made once, kept mode 0600 under the home), so one address works for both.
 */
export async function startVisServer(options: {
  sessions: ViewableSessions;
  host: string;
  port: number;
  home: string;
}): Promise<RunningVisServer> {
  const token = await loadOrCreateToken(tokenFile(options.home));
  assertSafeBind({ bindHost: options.host, token, omitAuth: false });

  let lastError: unknown;
  // Port 0 asks the system for a free port: one try.
  const last = options.port === 0 ? 0 : Math.min(65535, options.port + PORT_TRIES - 1);
  for (let port = options.port; port <= last; port++) {
    let policy: AccessPolicy | null = null;
    const app = createVisApp({
      policy: () => {
        if (policy === null) throw new Error('The server is not listening yet.');
        return policy;
      },
      sessions: options.sessions,
      pageHtml: readPageHtml,
      home: options.home,
    });
    const server = createAdaptorServer({ fetch: app.fetch }) as Server;
    try {
      await listen(server, port, options.host);
    } catch (error) {
      lastError = error;
      if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') continue;
      throw error;
    }
    const bound = (server.address() as AddressInfo).port;
    // A read-only viewer: clients on loopback and private networks only, as `kimi-ts web` by default.
    policy = accessPolicy({ bindHost: options.host, port: bound, token, lanOnly: true });
    const shown = options.host === '0.0.0.0' || options.host === '::' ? '127.0.0.1' : urlHost(options.host);
    return {
      url: `http://${shown}:${bound}/`,
      token,
      port: bound,
      close: () =>
        new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeAllConnections();
        }),
    };
  }
  const reason = lastError instanceof Error ? lastError.message : String(lastError);
  throw new Error(`No free port from ${options.port} to ${last} (${reason}).`);
}

function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const onError = (error: Error) => reject(error);
    server.once('error', onError);
    server.listen(port, host, () => {
      server.off('error', onError);
      resolve();
    });
  });
}
