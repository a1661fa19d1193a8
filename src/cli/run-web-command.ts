import { resolve } from 'node:path';
import { createAgentSession } from '../app/create-agent-session.js';
import { defaultExtensions } from '../app/default-extensions.js';
import { kimiTsHome } from '../config/home.js';
import { runWeb } from '../ui/web/server/run-web.js';
import { printWarning } from './print-warning.js';

export interface WebCommandOptions {
  host?: string;
  network?: boolean;
  port: number;
  open?: boolean;
  authToken?: string;
  allowedOrigins?: string;
  lanOnly: boolean;
  dangerouslyOmitAuth?: boolean;
  // The main command's options, taken from wherever they were parsed.
  workDir?: string;
  configFile?: string;
  config?: string;
  model?: string;
  yolo?: boolean;
  sandbox?: boolean;
  agentFile?: string;
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
      openSession: ({ workDir, sessionId }) =>
        createAgentSession({
          workDir,
          home,
          env,
          configFile: options.configFile,
          inlineConfig: options.config,
          modelAlias: options.model,
          sessionId,
          agentFile: options.agentFile,
          yolo: options.yolo,
          sandbox: options.sandbox,
          onWarning: printWarning,
          extensions: defaultExtensions({ mcpConfigFiles: [], mcpConfigs: [], home, addDirs: [] }),
        }),
      host: options.host ?? (options.network ? '0.0.0.0' : '127.0.0.1'),
      port: options.port,
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
