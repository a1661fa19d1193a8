import {
  AccessSetupError,
  assertSafeBind,
  isWildcardHost,
  loadOrCreateToken,
  tokenFile,
  urlHost,
} from '../../http/access.js';
import { openBrowser } from './open-browser.js';
import { SessionDirectory } from './session-directory.js';
import { type OpenAgentSession, SessionHosts } from './session-hosts.js';
import { startWebServer } from './web-server.js';

export const DEFAULT_WEB_PORT = 5494;
/** How many ports from the asked one are tried (Kimi CLI: 5494…5503). */
const PORT_TRIES = 10;
/** A session with no client and no turn is closed after this long. */
const IDLE_CLOSE_MS = 60_000;

export interface RunWebOptions {
  home: string;
  env: Readonly<Record<string, string | undefined>>;
  defaultWorkDir: string;
  configFile?: string | undefined;
  inlineConfig?: string | undefined;
  openSession: OpenAgentSession;
  /** `--queue URL`: show the fleet's sessions (from its Redis) instead of this machine's. */
  queue?: string | undefined;
  host: string;
  port: number;
  open: boolean;
  authToken?: string | undefined;
  allowedOrigins: readonly string[];
  lanOnly: boolean;
  omitAuth: boolean;
  /** Resolves (or aborts) when the server should stop. */
  signal: AbortSignal;
  stdout: (text: string) => void;
  stderr: (text: string) => void;
}

/** `kimi-ts web`: serves until `signal` aborts, then closes every session. Returns the exit code. */
export async function runWeb(options: RunWebOptions): Promise<number> {
  const token = options.omitAuth
    ? null
    : (options.authToken ?? (await loadOrCreateToken(tokenFile(options.home))));
  try {
    assertSafeBind({ bindHost: options.host, token, omitAuth: options.omitAuth });
  } catch (error) {
    if (error instanceof AccessSetupError) {
      options.stderr(`kimi-ts web: ${error.message}\n`);
      return 1;
    }
    throw error;
  }
  if (token === null)
    options.stderr(
      '\n!!! WARNING: --dangerously-omit-auth: anyone who can reach ' +
        `${options.host} may read your sessions and run commands as you. !!!\n\n`,
    );
  // BullMQ and ioredis load only in queue mode.
  const fleet =
    options.queue === undefined
      ? undefined
      : await (await import('./fleet/open-fleet-web.js')).openFleetWeb(
          options.queue,
          options.defaultWorkDir,
          options.stderr,
        );
  if (fleet !== undefined && 'error' in fleet) {
    options.stderr(`kimi-ts web: ${fleet.error}\n`);
    return 1;
  }
  const hosts = new SessionHosts(options.openSession, IDLE_CLOSE_MS, {
    replayMemoryBytes: replayMemoryBytes(options.env),
  });
  const context = {
    home: options.home,
    env: options.env,
    configFile: options.configFile,
    inlineConfig: options.inlineConfig,
    defaultWorkDir: options.defaultWorkDir,
    directory: new SessionDirectory(options.home),
    hosts,
    fleet,
  };
  const ports =
    options.port === 0
      ? [0]
      : Array.from({ length: PORT_TRIES }, (_, i) => options.port + i).filter((p) => p <= 65535);
  let server: Awaited<ReturnType<typeof startWebServer>>;
  try {
    server = await startWebServer({
      context,
      host: options.host,
      ports,
      token,
      extraOrigins: options.allowedOrigins,
      lanOnly: options.lanOnly,
    });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    options.stderr(
      code === 'EADDRINUSE'
        ? `kimi-ts web: ports ${ports[0]}–${ports.at(-1)} are all in use; pick another with --port.\n`
        : `kimi-ts web: cannot listen on ${options.host}: ${error instanceof Error ? error.message : String(error)}\n`,
    );
    fleet?.close();
    return 1;
  }
  const shownHost = isWildcardHost(options.host) ? '127.0.0.1' : urlHost(options.host);
  const base = `http://${shownHost}:${server.port}/`;
  // The token rides in the fragment: browsers never send it to a server, a log or a Referer.
  const url = token === null ? base : `${base}#token=${token}`;
  options.stdout(`kimi-ts web: serving on ${base}\nOpen: ${url}\n`);
  if (options.open) openBrowser(url, (message) => options.stderr(`kimi-ts web: ${message}\n`));
  await new Promise<void>((resolve) => {
    if (options.signal.aborted) resolve();
    else options.signal.addEventListener('abort', () => resolve(), { once: true });
  });
  await server.close();
  fleet?.close();
  return 0;
}

/**
 * `KIMI_TS_WEB_REPLAY_MEMORY_BYTES`: how much of each session's replay log stays in memory (default
 * 4 MiB; the rest is kept on disk). Tests set it small to replay sessions longer than it.
 */
function replayMemoryBytes(env: Readonly<Record<string, string | undefined>>): number | undefined {
  const value = Number(env.KIMI_TS_WEB_REPLAY_MEMORY_BYTES);
  return Number.isInteger(value) && value > 0 ? value : undefined;
}
