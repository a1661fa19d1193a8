import { chmod, mkdir, writeFile } from 'node:fs/promises';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { createAdaptorServer } from '@hono/node-server';
import { allowedHostsFor, newAccessToken } from './access.js';
import { readPageHtml } from './page-file.js';
import type { SessionCatalog } from './session-catalog.js';
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
 * Starts the vis server on `host`, on `port` or the next free one of the ten. A fresh token is made
 * for each start and kept (mode 0600) in `<home>/vis/token`, for scripts that want to read the API.
 */
export async function startVisServer(options: {
  catalog: SessionCatalog;
  host: string;
  port: number;
  home: string;
}): Promise<RunningVisServer> {
  const token = newAccessToken();
  const tokenDir = join(options.home, 'vis');
  await mkdir(tokenDir, { recursive: true, mode: 0o700 });
  const tokenFile = join(tokenDir, 'token');
  await writeFile(tokenFile, `${token}\n`, { mode: 0o600 });
  await chmod(tokenFile, 0o600);

  let lastError: unknown;
  // Port 0 asks the system for a free port: one try.
  const last = options.port === 0 ? 0 : Math.min(65535, options.port + PORT_TRIES - 1);
  for (let port = options.port; port <= last; port++) {
    // Filled once the port is known; the app reads it on every request.
    const allowedHosts = new Set<string>();
    const app = createVisApp({
      access: { token, allowedHosts },
      catalog: options.catalog,
      pageHtml: readPageHtml,
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
    for (const host of allowedHostsFor(options.host, bound)) allowedHosts.add(host);
    const shown = options.host.includes(':') ? `[${options.host}]` : options.host;
    const urlHost = shown === '0.0.0.0' || shown === '[::]' ? '127.0.0.1' : shown;
    return {
      url: `http://${urlHost}:${bound}/`,
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
