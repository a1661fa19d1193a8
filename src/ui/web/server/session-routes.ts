import { randomUUID } from 'node:crypto';
import { realpath, stat } from 'node:fs/promises';
import { isAbsolute } from 'node:path';
import { Hono } from 'hono';
import { z } from 'zod';
import { SessionCatalog } from '../../../app/session-catalog.js';
import { undoPoints } from '../../../app/session-fork.js';
import { sessionTitle } from '../../../session/inspect.js';
import type { Session } from '../../../session/session.js';
import { SessionLockedError } from '../../../session/session-lock.js';
import { HttpError, limitBody, readBody } from './body.js';
import { openStreamHost, safeDecode } from './open-stream.js';
import type { WebContext } from './web-context.js';

/** A session as the REST API lists it. */
export interface SessionJSON {
  id: string;
  title: string;
  work_dir: string;
  /** Last change, ISO 8601. */
  updated_at: string;
  turns: number;
  /** Whether this server runs it now (a turn may be in progress: see `busy`). */
  open: boolean;
  busy: boolean;
}

const createBody = z.object({ work_dir: z.string().min(1).max(4096) }).strict();
const renameBody = z
  .object({
    title: z
      .string()
      .trim()
      .min(1)
      .max(200)
      .regex(/^[^\p{Cc}]*$/u, 'must not contain control characters'),
  })
  .strict();
const forkBody = z.object({ turn: z.number().int().min(0).optional() }).strict();

/** How the stream of a deleted session is closed under its clients. */
export const SESSION_DELETED = { code: 4404, reason: 'The session was deleted.' } as const;

/** `/api/sessions…`: list, create, get, rename, fork, delete, export. */
export function sessionRoutes(ctx: WebContext): Hono {
  const app = new Hono();
  const catalog = new SessionCatalog(ctx.home, ctx);

  app.get('/', async (c) => {
    // The fleet's sessions, whatever their work dir (they may run on other machines).
    if (ctx.fleet !== undefined) {
      const refusal = await ctx.fleet.refusal(randomUUID());
      if (refusal !== null) throw new HttpError(refusal.status, refusal.code, refusal.message);
      return c.json({ sessions: await ctx.fleet.listSessions() });
    }
    const wanted = c.req.query('work_dir');
    const workDirs = wanted === undefined ? await ctx.directory.workDirs() : [wanted];
    const lists = await Promise.all(workDirs.map((workDir) => catalog.list(workDir).catch(() => [])));
    const summaries = lists.flat().sort((a, b) => b.updatedAt - a.updatedAt);
    const sessions = await Promise.all(
      summaries.map(({ session, title, updatedAt }) => describe(ctx, session, title, updatedAt)),
    );
    return c.json({ sessions });
  });

  app.post('/', limitBody, async (c) => {
    const { work_dir } = await readBody(c, createBody);
    const workDir = await existingDir(work_dir);
    // A fleet session starts as an id: its first prompt from the page queues its first turn.
    if (ctx.fleet !== undefined) return c.json({ session: { id: randomUUID(), work_dir: workDir } }, 201);
    const host = await ctx.hosts.create(workDir);
    const session = { id: host.sessionId, work_dir: host.session.workDir };
    return c.json({ session }, 201);
  });

  app.get('/:id', async (c) => {
    const session = await found(ctx, c.req.param('id'));
    return c.json({ session: await describe(ctx, session) });
  });

  app.patch('/:id', limitBody, async (c) => {
    refuseInFleet(ctx);
    const session = await found(ctx, c.req.param('id'));
    const { title } = await readBody(c, renameBody);
    await catalog.rename(session, title);
    return c.json({ session: await describe(ctx, session) });
  });

  app.post('/:id/fork', limitBody, async (c) => {
    refuseInFleet(ctx);
    const source = await found(ctx, c.req.param('id'));
    const { turn } = await readBody(c, forkBody);
    const points = await catalog.undoPoints(source);
    if (turn !== undefined && turn > points.length)
      throw new HttpError(
        400,
        'invalid_turn',
        `The session has ${points.length} turns; cannot fork at turn ${turn}.`,
      );
    // `turn: n` keeps turns 1..n: the fork is cut just before turn n + 1 (no cut at the last turn).
    const before = turn === undefined ? undefined : points.find((point) => point.n === turn + 1);
    const fork = await catalog.fork(source, before);
    return c.json({ session: await describe(ctx, fork) }, 201);
  });

  app.delete('/:id', async (c) => {
    refuseInFleet(ctx);
    const session = await found(ctx, c.req.param('id'));
    const host = ctx.hosts.has(session.id) ? await ctx.hosts.get(session.workDir, session.id) : null;
    if (host?.isBusy) throw new HttpError(409, 'session_busy', 'The session has a turn running.');
    // Tabs still watching it are told it is gone (close code 4404), not left reconnecting.
    await ctx.hosts.close(session.id, SESSION_DELETED);
    // The catalog refuses a session another process has open (its lock names a live owner), and
    // holds the lock until the folder is gone.
    try {
      await catalog.delete(session);
    } catch (error) {
      if (error instanceof SessionLockedError)
        throw new HttpError(409, 'session_locked', 'The session is open in another kimi-ts process.');
      throw error;
    }
    return c.json({ deleted: session.id });
  });

  // A plain GET of the stream URL: whether a WebSocket would be served (426) or why not (404, 409,
  // 500 with the reason), since a browser never sees the answer to a refused upgrade.
  app.get('/:id/stream', async (c) => {
    if (ctx.fleet !== undefined) {
      const refusal = await ctx.fleet.refusal(safeDecode(c.req.param('id')));
      if (refusal !== null) throw new HttpError(refusal.status, refusal.code, refusal.message);
      throw new HttpError(426, 'upgrade_required', 'The session can be followed: connect with a WebSocket.');
    }
    const opened = await openStreamHost(ctx, c.req.param('id'), 'probe');
    if ('refusal' in opened) {
      const { status, code, message } = opened.refusal;
      throw new HttpError(status, code, message);
    }
    throw new HttpError(426, 'upgrade_required', 'The session can be opened: connect with a WebSocket.');
  });

  app.get('/:id/export', async (c) => {
    const session = await found(ctx, c.req.param('id'));
    const markdown = await catalog.exportMarkdown(session);
    c.header('Content-Disposition', `attachment; filename="kimi-ts-${session.id}.md"`);
    return c.body(markdown, 200, { 'Content-Type': 'text/markdown; charset=utf-8' });
  });

  return app;
}

/**
 * A fleet session's files belong to the worker that runs its turns (maybe on another machine):
 * renaming, forking or deleting them from a web node would race it, so queue mode refuses.
 */
function refuseInFleet(ctx: WebContext): void {
  if (ctx.fleet !== undefined)
    throw new HttpError(409, 'fleet_session', 'Not available for the sessions of a fleet (web --queue).');
}

async function found(ctx: WebContext, id: string): Promise<Session> {
  const session = await ctx.directory.find(id);
  if (session === null) throw new HttpError(404, 'session_not_found', 'There is no session with this id.');
  return session;
}

async function describe(
  ctx: WebContext,
  session: Session,
  title?: string,
  updatedAt?: number,
): Promise<SessionJSON> {
  const [points, info, state] = await Promise.all([
    undoPoints(session).catch(() => []),
    updatedAt === undefined ? stat(session.contextFile).catch(() => null) : null,
    title ?? sessionTitle(session).catch(() => session.id),
  ]);
  const open = ctx.hosts.has(session.id);
  const host = open ? await ctx.hosts.get(session.workDir, session.id).catch(() => null) : null;
  return {
    id: session.id,
    title: state,
    work_dir: session.workDir,
    updated_at: new Date(updatedAt ?? info?.mtimeMs ?? 0).toISOString(),
    turns: points.length,
    open,
    busy: host?.session.isBusy ?? false,
  };
}

/** `work_dir` resolved to a real, existing directory (absolute paths only). */
async function existingDir(path: string): Promise<string> {
  if (!isAbsolute(path) || path.includes('\0'))
    throw new HttpError(400, 'invalid_work_dir', 'work_dir must be an absolute path.');
  try {
    const real = await realpath(path);
    if ((await stat(real)).isDirectory()) return real;
  } catch {
    // answered below
  }
  throw new HttpError(400, 'invalid_work_dir', 'work_dir is not an existing directory.');
}
