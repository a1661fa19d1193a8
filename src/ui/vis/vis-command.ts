import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { addLoginSecrets, collectSecrets } from '../../app/collect-secrets.js';
import { commandLineExportChecks, writeExportFile } from '../../app/export-file.js';
import { SessionCatalog } from '../../app/session-catalog.js';
import { kimiTsHome } from '../../config/home.js';
import { loadConfig } from '../../config/load-config.js';
import { defaultConfig } from '../../config/schema.js';
import { openInBrowser } from '../../mcp/oauth/open-browser.js';
import { continueSession } from '../../session/list.js';
import { matchAmong, SessionIdError, sessionIdProblem } from '../../session/session-id-match.js';
import { exportHtml } from './server/export-html.js';
import { readPageHtml } from './server/page-file.js';
import { startVisServer } from './server/start-server.js';
import { ViewableSessions } from './server/viewable-sessions.js';

export const VIS_DEFAULT_PORT = 5495;

export interface VisCommandOptions {
  /** A session id, the path of a session folder (a copied one), or a session ZIP (`kimi-ts export --zip`). */
  session?: string | undefined;
  host?: string | undefined;
  port?: number | undefined;
  network?: boolean | undefined;
  open?: boolean | undefined;
  /** Write one self-contained HTML file instead of serving. */
  export?: string | undefined;
  workDir?: string | undefined;
  configFile?: string | undefined;
  write: (text: string) => void;
  error: (text: string) => void;
  /** Resolves when the server should stop (the CLI: on SIGINT/SIGTERM). */
  stopped?: Promise<void>;
}

/** `kimi-ts vis [SESSION] [--export FILE.html]`: a read-only picture of a session. Returns the exit code. */
export async function visCommand(options: VisCommandOptions): Promise<number> {
  const home = kimiTsHome(process.env);
  // The session files hold no secrets (the wire redacts them); redacting again here is the second lock.
  const config = await loadConfig({ env: process.env, home, configFile: options.configFile }).then(
    (loaded) => loaded.config,
    () => defaultConfig(),
  );
  const secrets = collectSecrets(config, process.env);
  await addLoginSecrets(secrets, config, home);
  const viewable = new ViewableSessions(home, { redact: (text) => secrets.redact(text) });
  try {
    const sessionId = await resolveSession(viewable, options.session, { home, say: options.error });
    if (options.export) return await exportSession(viewable, sessionId, options);
    // Read the session before the address is printed, so the page's first request is served from memory.
    if (sessionId) await viewable.load(sessionId);
    const host = options.host ?? (options.network ? '0.0.0.0' : '127.0.0.1');
    const server = await startVisServer({
      sessions: viewable,
      host,
      port: options.port ?? VIS_DEFAULT_PORT,
      home,
    });
    // The token rides in the fragment: browsers never send it to a server, a log or a Referer.
    const fragment = new URLSearchParams({ token: server.token });
    if (sessionId) fragment.set('session', sessionId);
    const url = new URL(`${server.url}#${fragment}`);
    options.write(`kimi-ts vis (read-only) at ${url.href}\nPress Ctrl-C to stop.\n`);
    // Without a session named, the page opens the newest: read it while the browser starts.
    if (!sessionId) void preloadNewest(viewable);
    if (options.open !== false && !(await openInBrowser(url.href))) {
      options.error('Could not open a browser; open the address above.\n');
    }
    await (options.stopped ?? new Promise<void>(() => undefined));
    await server.close();
    return 0;
  } catch (error) {
    options.error(`kimi-ts vis: ${error instanceof Error ? error.message : String(error)}\n`);
    return error instanceof SessionIdError ? 2 : 1;
  }
}

/**
 * A ZIP is imported into `imported_sessions/`; a folder path is added to those vis shows; an id must name
 * a session; none picks nothing (the page lists them).
 */
async function resolveSession(
  viewable: ViewableSessions,
  session: string | undefined,
  io: { home: string; say: (text: string) => void },
): Promise<string | undefined> {
  if (session === undefined) return undefined;
  const asPath = resolve(session);
  const info = await stat(asPath).catch(() => null);
  if (info?.isFile() && /\.zip$/i.test(session)) {
    const imported = await new SessionCatalog(io.home, { env: process.env }).importArchive(asPath);
    io.say(
      imported.alreadyImported
        ? `Session ${imported.id} was imported before (${imported.dir}).\n`
        : `Imported session ${imported.id} into ${imported.dir}.\n`,
    );
    return imported.id;
  }
  if (/\.zip$/i.test(session)) throw new Error(`There is no ZIP file ${asPath}.`);
  if (info?.isDirectory()) return viewable.addFolder(asPath);
  if (await viewable.find(session)) return session;
  // The lists show 8-character ids: a unique prefix of one names it.
  const match = matchAmong(
    (await viewable.list()).map((entry) => entry.id),
    session,
  );
  if (match.kind === 'found') return match.id;
  throw new SessionIdError(sessionIdProblem(match) ?? `There is no session ${JSON.stringify(session)}.`);
}

async function exportSession(
  viewable: ViewableSessions,
  sessionId: string | undefined,
  options: VisCommandOptions,
): Promise<number> {
  let id = sessionId;
  if (id === undefined) {
    const workDir = resolve(options.workDir ?? process.cwd());
    const home = kimiTsHome(process.env);
    id = await continueSession({ home, workDir }).then(
      (session) => session.id,
      async () => (await viewable.list())[0]?.id,
    );
  }
  const loaded = id === undefined ? undefined : await viewable.load(id);
  if (!loaded || id === undefined) throw new Error('There is no session to export.');
  const page = exportHtml(await readPageHtml(), loaded);
  const written = await writeExportFile(options.export!, page, commandLineExportChecks(process.env));
  switch (written.kind) {
    case 'refused':
      options.error(`${written.problem}\n`);
      return 1;
    case 'written':
      options.error(`Wrote the picture of session ${id} to ${written.file}.\n`);
      return 0;
  }
}

async function preloadNewest(viewable: ViewableSessions): Promise<void> {
  try {
    const newest = (await viewable.list())[0];
    if (newest) await viewable.load(newest.id);
  } catch {
    // The page's own request reads it again and reports what went wrong.
  }
}
