import { Hono } from 'hono';
import { VERSION } from '../../../version.js';
import { type AccessRules, bearerToken, checkAccess } from './access.js';
import { linePageQuery, pageOfLines } from './line-page.js';
import { pagePolicy } from './page-file.js';
import type { SessionCatalog } from './session-catalog.js';

export interface VisAppOptions {
  access: AccessRules;
  catalog: SessionCatalog;
  /** The page (one self-contained HTML file). */
  pageHtml: () => Promise<string>;
}

/**
 * The read-only HTTP API of `kimi-ts vis` under `/api/vis/`, and the page at `/`. Every request
 * passes the access check first; nothing here writes.
 */
export function createVisApp(options: VisAppOptions): Hono {
  const app = new Hono();
  const { catalog } = options;

  app.use('*', async (c, next) => {
    const verdict = checkAccess(options.access, {
      host: c.req.header('host'),
      origin: c.req.header('origin'),
      presentedToken: bearerToken(c.req.header('authorization')) ?? c.req.query('token'),
    });
    if (!verdict.ok) return c.json({ error: verdict.reason }, verdict.status);
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
    c.json({ version: VERSION, read_only: true, zip_import: false, routes: ROUTES }),
  );

  app.get('/api/vis/sessions', async (c) => {
    const entries = await catalog.list();
    return c.json({
      sessions: entries.map((e) => ({ id: e.id, updated_at: e.updatedAt, source: e.source })),
    });
  });

  app.get('/api/vis/sessions/:id/model', async (c) => {
    const loaded = await catalog.load(c.req.param('id'));
    if (!loaded) return c.json({ error: 'No such session.' }, 404);
    return c.json(loaded.model);
  });

  app.get('/api/vis/sessions/:id/summary', async (c) => {
    const loaded = await catalog.load(c.req.param('id'));
    if (!loaded) return c.json({ error: 'No such session.' }, 404);
    const { model } = loaded;
    return c.json({ id: model.sessionId, title: model.title, running: model.running, ...model.summary });
  });

  for (const list of ['events', 'context'] as const) {
    app.get(`/api/vis/sessions/:id/${list}`, async (c) => {
      const query = linePageQuery.safeParse(c.req.query());
      if (!query.success) return c.json({ error: 'Bad offset, limit or q.' }, 400);
      const loaded = await catalog.load(c.req.param('id'));
      if (!loaded) return c.json({ error: 'No such session.' }, 404);
      return c.json(pageOfLines(loaded[list], query.data));
    });
  }

  app.notFound((c) => c.json({ error: 'Not found.' }, 404));
  app.onError((error, c) => {
    process.stderr.write(`kimi-ts vis: ${error.message}\n`);
    return c.json({ error: 'The session could not be read.' }, 500);
  });
  return app;
}

const ROUTES = [
  'GET /api/vis/sessions',
  'GET /api/vis/sessions/:id/model',
  'GET /api/vis/sessions/:id/summary',
  'GET /api/vis/sessions/:id/events?offset&limit&q',
  'GET /api/vis/sessions/:id/context?offset&limit&q',
];
