import type { ChildProcess } from 'node:child_process';
import type { CliSandbox } from './run-cli.js';

/** A running `kimi-ts web` and the URL (with its token) it printed. */
export interface WebCli {
  child: ChildProcess;
  /** The URL the server printed, token included. */
  url: string;
  origin: string;
  token: string;
  /** Everything it printed so far (stdout and stderr). */
  readonly output: string;
  stop(): Promise<void>;
}

const URL_WITH_TOKEN = /https?:\/\/[^\s"'<>]+[?#&]token=[A-Za-z0-9_\-.~%]+/;

/**
 * Starts the built CLI's `kimi-ts web --no-open` on a free port in the sandbox and waits (up to
 * `timeoutMs`) for the URL it prints. `stop()` ends it with SIGTERM and waits for the exit.
 */
export async function startWebCli(
  sandbox: CliSandbox,
  args: string[] = [],
  timeoutMs = 20_000,
): Promise<WebCli> {
  const child = sandbox.spawn(['web', '--no-open', '--port', '0', ...args]);
  let output = '';
  const exited = new Promise<void>((resolve) => child.once('close', () => resolve()));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`kimi-ts web printed no URL in ${timeoutMs} ms:\n${output}`)),
      timeoutMs,
    );
    const onData = (chunk: Buffer) => {
      output += chunk.toString('utf8');
      const match = URL_WITH_TOKEN.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(match[0]);
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('close', (code) => {
      clearTimeout(timer);
      reject(new Error(`kimi-ts web exited (${code}) before printing a URL:\n${output}`));
    });
  });
  const parsed = new URL(url);
  const token =
    parsed.searchParams.get('token') ?? new URLSearchParams(parsed.hash.replace(/^#/, '')).get('token') ?? '';
  return {
    child,
    url,
    origin: parsed.origin,
    token,
    get output() {
      return output;
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      // A server that does not stop on SIGTERM is a bug the test should not hang on.
      const kill = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(kill);
    },
  };
}
