import { resolve } from 'node:path';
import { kimiTsHome } from '../config/home.js';
import { DEFAULT_WEB_PORT, runWeb } from '../ui/web/server/run-web.js';
import { printWarning } from './print-warning.js';
import { openAgentSessionFromFlags, type SessionFlags } from './session-options.js';

/** The flags of `kimi-ts web`, and the main command's (SessionFlags) from wherever they were parsed. */
export interface WebCommandOptions extends SessionFlags {
  host?: string;
  network?: boolean;
  port?: number | undefined;
  open?: boolean;
  authToken?: string;
  allowedOrigins?: string;
  lanOnly: boolean;
  dangerouslyOmitAuth?: boolean;
  /** `--queue URL`: the fleet's sessions, from its Redis. */
  queue?: string;
}

/** `kimi-ts web`: the web server, every session it opens built like the terminal's. */
export async function runWebCommand(options: WebCommandOptions): Promise<number> {
  const env = process.env;
  const home = kimiTsHome(env);
  const cancel = new AbortController();
  const onSignal = (): void => cancel.abort();
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    return await runWeb({
      home,
      env,
      defaultWorkDir: resolve(options.workDir ?? process.cwd()),
      configFile: options.configFile,
      inlineConfig: options.config,
      // Every session the page opens honours the same flags as the terminal's.
      openSession: ({ workDir, sessionId }) =>
        openAgentSessionFromFlags(options, { home, env, workDir, sessionId, onWarning: printWarning }),
      queue: options.queue,
      host: options.host ?? (options.network ? '0.0.0.0' : '127.0.0.1'),
      port: options.port ?? DEFAULT_WEB_PORT,
      // Default: open a browser only for a person at a terminal.
      open: options.open ?? Boolean(process.stdout.isTTY),
      authToken: options.authToken,
      allowedOrigins: (options.allowedOrigins ?? '').split(',').filter((o) => o.trim() !== ''),
      lanOnly: options.lanOnly,
      omitAuth: Boolean(options.dangerouslyOmitAuth),
      signal: cancel.signal,
      stdout: (text) => process.stdout.write(text),
      stderr: (text) => process.stderr.write(text),
    });
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}
