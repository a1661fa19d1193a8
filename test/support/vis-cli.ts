import type { ChildProcess } from 'node:child_process';
import type { CliSandbox } from './run-cli.js';

/** A running `kimi-ts vis` and the address (with its token) it printed. */
export interface VisCli {
  child: ChildProcess;
  url: string;
  origin: string;
  token: string;
  readonly output: string;
  stop(): Promise<void>;
}

const URL_WITH_TOKEN = /http:\/\/[^\s"'<>]+#token=[A-Za-z0-9_-]+[^\s"'<>]*/;

/**
 * Starts the built CLI's `kimi-ts vis --no-open --port 0 [args]` in the sandbox and waits (up to
 * `timeoutMs`) for the address it prints. `stop()` ends it with SIGTERM and waits for the exit.
 */
export async function startVisCli(
  sandbox: CliSandbox,
  args: string[] = [],
  timeoutMs = 20_000,
): Promise<VisCli> {
  const child = sandbox.spawn(['vis', '--no-open', '--port', '0', ...args]);
  let output = '';
  const exited = new Promise<void>((resolve) => child.once('close', () => resolve()));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`kimi-ts vis printed no URL in ${timeoutMs} ms:\n${output}`)),
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
      reject(new Error(`kimi-ts vis exited (${code}) before printing a URL:\n${output}`));
    });
  });
  const parsed = new URL(url);
  return {
    child,
    url,
    origin: parsed.origin,
    token: new URLSearchParams(parsed.hash.slice(1)).get('token') ?? '',
    get output() {
      return output;
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      const kill = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(kill);
    },
  };
}
