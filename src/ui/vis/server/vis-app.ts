import { Hono } from 'hono';
import { VERSION } from '../../../version.js';
import type { AccessPolicy } from '../../http/access.js';
import { accessGuard, jsonError } from '../../http/hono-access.js';
import { addImportRoute } from './import-route.js';
import { linePageQuery, pageOfLines } from './line-page.js';
import { pagePolicy } from './page-file.js';
import type { ViewableSessions } from './viewable-sessions.js';

export interface VisAppOptions {
  /** The access policy (known once the server listens: it names the port). */
  policy: () => AccessPolicy;
  sessions: ViewableSessions;
  /** The page (one self-contained HTML file). */
  pageHtml: () => Promise<string>;
  /** kimi-ts's home: uploaded archives are imported into its `imported_sessions/`. */
  home: string;
  /** The largest archive an upload may be (the import route's default otherwise). */
  maxImportBytes?: number | undefined;
}

/**
 * The read-only HTTP API of `kimi-ts vis` under `/api/vis/`, and the page at `/`. Every request
 * passes the access check first. Sessions are only read; the one route that writes imports an
 * uploaded session archive into `imported_sessions/`.
 */
export function createVisApp(options: VisAppOptions): Hono {
  const app = new Hono();
  const { sessions } = options;

  // Host, Origin and the peer are checked everywhere; the page holds no data and needs no token
  // (it reads it from its address's fragment), every route of the API does. The rules of `kimi-ts web`.
  app.use('*', async (c, next) => accessGuard(options.policy(), false)(c, next));
  app.use('/api/*', async (c, next) => accessGuard(options.policy(), true)(c, next));
  app.use('*', async (c, next) => {
    await next();
    c.header('X-Content-Type-Options', 'nosniff');
    c.header('Referrer-Policy', 'no-referrer');
    c.header('Cache-Control', 'no-store');
  });

  app.get('/', async (c) => {
    const html = await options.pageHtml();
    c.header('Content-Security-Policy', `${pagePolicy(html, { connect: true })}; frame-ancestors 'none'`);
    return c.html(html);
  });

  app.get('/api/vis/capabilities', (c) =>
    c.json({ version: VERSION, read_only: true, zip_import: true, routes: ROUTES }),
  );

  app.get('/api/vis/sessions', async (c) => {
    const entries = await sessions.list();
    const titles = await Promise.all(entries.map((e) => sessions.title(e)));
    return c.json({
      sessions: entries.map((e, i) => ({
        id: e.id,
        title: titles[i],
        updated_at: e.updatedAt,
        source: e.source,
      })),
    });
  });

  app.get('/api/vis/sessions/:id/model', async (c) => {
    const loaded = await sessions.load(c.req.param('id'));
    if (!loaded) return jsonError(c, 404, 'not_found', 'No such session.');
    return c.json(loaded.model);
  });

  app.get('/api/vis/sessions/:id/summary', async (c) => {
    const loaded = await sessions.load(c.req.param('id'));
    if (!loaded) return jsonError(c, 404, 'not_found', 'No such session.');
    const { model } = loaded;
    return c.json({ id: model.sessionId, title: model.title, running: model.running, ...model.summary });
  });

  for (const list of ['events', 'context'] as const) {
    app.get(`/api/vis/sessions/:id/${list}`, async (c) => {
      const query = linePageQuery.safeParse(c.req.query());
      if (!query.success) return jsonError(c, 400, 'bad_request', 'Bad offset, limit or q.');
      const loaded = await sessions.load(c.req.param('id'));
      if (!loaded) return jsonError(c, 404, 'not_found', 'No such session.');
      return c.json(pageOfLines(loaded[list], query.data));
    });
  }

  addImportRoute(app, options.home, options.maxImportBytes);

  app.notFound((c) => jsonError(c, 404, 'not_found', 'Not found.'));
  app.onError((error, c) => {
    // No detail that could carry a path or a secret: stderr gets the error's name only.
    process.stderr.write(`vis: ${c.req.method} ${c.req.path} failed: ${error.name}\n`);
    return jsonError(c, 500, 'internal', 'The session could not be read.');
  });
  return app;
}

const ROUTES = [
  'GET /api/vis/sessions',
  'GET /api/vis/sessions/:id/model',
  'GET /api/vis/sessions/:id/summary',
  'GET /api/vis/sessions/:id/events?offset&limit&q',
  'GET /api/vis/sessions/:id/context?offset&limit&q',
  'POST /api/vis/import (body: a session ZIP from `kimi-ts export --zip`)',
];
