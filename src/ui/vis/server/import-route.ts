import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import type { Context, Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { SessionCatalog } from '../../../app/session-catalog.js';
import { ArchiveError } from '../../../session/archive/extract-zip.js';
import { importedSessionsDir } from '../../../session/archive/import-session-zip.js';
import { jsonError } from '../../http/hono-access.js';

/** The largest upload the import route reads (a 10,000-step session's archive is a few MB). */
export const MAX_IMPORT_BYTES = 256 * 1024 * 1024;

/**
 * `POST /api/vis/import`: the body is a session archive (`kimi-ts export --zip`). It is streamed to
 * a temporary file under `imported_sessions/` (never held in memory, cut at MAX_IMPORT_BYTES) and
 * imported like `kimi-ts vis FILE.zip`; the answer names the session to open. The access rules are
 * the other routes' (the token, Host and Origin), applied before this runs.
 */
export function addImportRoute(app: Hono, home: string, maxBytes = MAX_IMPORT_BYTES): void {
  app.post(
    '/api/vis/import',
    bodyLimit({
      maxSize: maxBytes,
      onError: (c) =>
        jsonError(
          c,
          413,
          'body_too_large',
          `The archive is larger than ${Math.round(maxBytes / 1048576)} MiB.`,
        ),
    }),
    async (c) => importUpload(c, home),
  );
}

async function importUpload(c: Context, home: string): Promise<Response> {
  const body = c.req.raw.body;
  if (!body) return jsonError(c, 400, 'bad_request', 'The request has no archive in its body.');
  const root = importedSessionsDir(home);
  await mkdir(root, { recursive: true, mode: 0o700 });
  const upload = join(root, `.upload-${randomBytes(8).toString('hex')}.zip`);
  try {
    // A body over the limit fails this stream; the limit's own handler answers 413.
    await pipeline(
      Readable.fromWeb(body as WebReadableStream<Uint8Array>),
      createWriteStream(upload, { flags: 'wx', mode: 0o600 }),
    );
    const catalog = new SessionCatalog(home, { env: process.env });
    const imported = await catalog.importArchive(upload, c.req.raw.signal);
    return c.json({ id: imported.id, already_imported: imported.alreadyImported });
  } catch (error) {
    if (error instanceof ArchiveError) return jsonError(c, 400, 'bad_archive', error.message);
    throw error;
  } finally {
    await rm(upload, { force: true });
  }
}
