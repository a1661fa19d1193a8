import type { ClientInfo } from '../connection.js';

/** What every `kimi-ts mcp …` command is given. */
export interface McpCommandContext {
  /** kimi-ts's data folder (`kimiTsHome(env)`): `mcp.json` and `mcp-oauth/` live there. */
  home: string;
  /** Receives each line for stdout as it is produced (a command may run for minutes, e.g. `auth`). */
  out?: ((line: string) => void) | undefined;
  /** Receives each line for stderr as it is produced. */
  err?: ((line: string) => void) | undefined;
  /** Opens the authorization page for `auth`; default: the desktop's browser. */
  openUrl?: ((url: string) => Promise<boolean>) | undefined;
  /** Cancels a running `auth` or `test` (Ctrl-C). */
  signal?: AbortSignal | undefined;
  /** For `${VAR}` references in mcp.json. Default `process.env`. */
  env?: Readonly<Record<string, string | undefined>> | undefined;
  clientInfo?: ClientInfo | undefined;
}

export interface McpCommandResult {
  exitCode: number;
  /** Everything written to stdout, one line per entry joined with newlines. */
  stdout: string;
  stderr: string;
}

export interface CommandIO {
  out(line: string): void;
  err(line: string): void;
}

/** Thrown by a command to stop with a message on stderr and exit code 1. */
export class CommandFailure extends Error {
  override name = 'CommandFailure';
}

/** Runs a command body, collecting (and forwarding) its output; failures become exit code 1. */
export async function runCommand(
  ctx: McpCommandContext,
  body: (io: CommandIO) => Promise<number | undefined>,
): Promise<McpCommandResult> {
  const stdout: string[] = [];
  const stderr: string[] = [];
  const io: CommandIO = {
    out(line) {
      stdout.push(line);
      ctx.out?.(line);
    },
    err(line) {
      stderr.push(line);
      ctx.err?.(line);
    },
  };
  let exitCode: number;
  try {
    exitCode = (await body(io)) ?? 0;
  } catch (error) {
    io.err(error instanceof Error ? error.message : String(error));
    exitCode = 1;
  }
  return { exitCode, stdout: stdout.join('\n'), stderr: stderr.join('\n') };
}
