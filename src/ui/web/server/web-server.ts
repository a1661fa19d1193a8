import { existsSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { createAdaptorServer } from '@hono/node-server';
import { serveStatic } from '@hono/node-server/serve-static';
import { Hono } from 'hono';
import { type AccessPolicy, accessPolicy } from '../../http/access.js';
import { accessGuard, jsonError, securityHeaders } from '../../http/hono-access.js';
import { HttpError } from './body.js';
import { configRoutes } from './config-routes.js';
import { sessionRoutes } from './session-routes.js';
import { streamUpgradeHandler } from './stream-socket.js';
import type { WebContext } from './web-context.js';

/** Where `npm run build` puts the page (dist/web/), found from this module in dist/ or in the bundle. */
export const PAGE_DIR = fileURLToPath(new URL('../../../web/', import.meta.url));

export interface WebServerOptions {
  context: WebContext;
  /** The address to bind (`127.0.0.1`, `0.0.0.0`, …). */
  host: string;
  /** Ports to try in order; the first free one is taken (0: any free port). */
  ports: readonly number[];
  token: string | null;
  extraOrigins: readonly string[];
  lanOnly: boolean;
  /** The page's files (default PAGE_DIR). */
  pageDir?: string | undefined;
}

export interface RunningWebServer {
  readonly port: number;
  readonly policy: AccessPolicy;
  close(): Promise<void>;
}

/** Builds the Hono app: the page (no token needed: it holds no data), `/api/*` behind the token. */
export function buildWebApp(context: WebContext, policy: () => AccessPolicy, pageDir: string): Hono {
  const app = new Hono();
  app.use('*', securityHeaders());
  // Host, Origin and the peer are checked everywhere (DNS rebinding reaches the page too).
  app.use('*', async (c, next) => accessGuard(policy(), false)(c, next));
  app.use('/api/*', async (c, next) => accessGuard(policy(), true)(c, next));
  app.route('/api/sessions', sessionRoutes(context));
  app.route('/api', configRoutes(context));
  app.all('/api/*', (c) => jsonError(c, 404, 'not_found', 'No such API route.'));
  const hasPage = existsSync(pageDir);
  app.use('*', async (c, next) => (hasPage ? serveStatic({ root: pageDir })(c, next) : next()));
  // The page routes on the client: any other GET gets index.html.
  app.get('*', async (c, next) =>
    hasPage ? serveStatic({ root: pageDir, path: 'index.html' })(c, next) : next(),
  );
  app.notFound((c) =>
    jsonError(
      c,
      404,
      'not_found',
      hasPage ? 'Not found.' : 'The web page is not built (run `npm run build`).',
    ),
  );
  app.onError((error, c) => {
    if (error instanceof HttpError) return jsonError(c, error.status, error.code, error.message);
    if (error.name === 'SessionLockedError') return jsonError(c, 409, 'session_locked', error.message);
    if (error.name === 'ServerClosingError') return jsonError(c, 503, 'server_closing', error.message);
    // No stack and no detail that could carry a path or a secret: the server's stderr gets the name only.
    process.stderr.write(`web: ${c.req.method} ${c.req.path} failed: ${error.name}\n`);
    return jsonError(c, 500, 'internal', 'The server could not complete the request.');
  });
  return app;
}

/** Starts the server on the first free port of `ports`. Rejects when none is free. */
export async function startWebServer(options: WebServerOptions): Promise<RunningWebServer> {
  let policy: AccessPolicy | null = null;
  const currentPolicy = (): AccessPolicy => {
    if (policy === null) throw new Error('The server is not listening yet.');
    return policy;
  };
  const app = buildWebApp(options.context, currentPolicy, options.pageDir ?? PAGE_DIR);
  const server = createAdaptorServer({ fetch: app.fetch }) as Server;
  const stream = streamUpgradeHandler(options.context, currentPolicy);
  server.on('upgrade', stream.onUpgrade);
  server.headersTimeout = 30_000;
  server.requestTimeout = 60_000;
  const port = await listenOnFirstFree(server, options.host, options.ports);
  policy = accessPolicy({
    bindHost: options.host,
    port,
    token: options.token,
    extraOrigins: options.extraOrigins,
    lanOnly: options.lanOnly,
  });
  const running = policy;
  return {
    port,
    policy: running,
    close: async () => {
      stream.close();
      await options.context.hosts.closeAll();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
    },
  };
}

async function listenOnFirstFree(server: Server, host: string, ports: readonly number[]): Promise<number> {
  let lastError: unknown = new Error('No port to try.');
  for (const port of ports) {
    try {
      await new Promise<void>((resolve, reject) => {
        const onError = (error: Error): void => {
          server.off('listening', onListening);
          reject(error);
        };
        const onListening = (): void => {
          server.off('error', onError);
          resolve();
        };
        server.once('error', onError);
        server.once('listening', onListening);
        server.listen(port, host);
      });
      return (server.address() as AddressInfo).port;
    } catch (error) {
      lastError = error;
      if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
    }
  }
  throw lastError;
}
