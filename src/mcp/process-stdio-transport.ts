import type { ChildProcess } from 'node:child_process';
import { getDefaultEnvironment } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ReadBuffer, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { childProcess } from '../util/child-process.js';
import { withTrustedPath } from '../util/path-entries.js';

export interface ProcessStdioParams {
  command: string;
  args: readonly string[];
  /** Added to the small safe base environment the SDK also uses (HOME, PATH, SHELL, TERM, USER, LOGNAME). */
  env: Record<string, string>;
  cwd?: string | undefined;
  /** How long a server gets to exit on its own after its stdin closes, before it is signalled. */
  exitGraceMs?: number | undefined;
}

const STDERR_TAIL_CHARS = 2_000;
const IS_WINDOWS = process.platform === 'win32';

/**
 * Talks JSON-RPC lines to a server process, like the SDK's `StdioClientTransport`, with two
 * differences that matter for an agent: the server runs in its own process group, so a Ctrl-C in
 * the terminal does not kill it and closing kills everything it started (an `npx` wrapper's child
 * too); and its stderr is kept (the last part) to explain a failure instead of being printed over
 * the UI.
 */
export class ProcessStdioTransport implements Transport {
  onclose?: (() => void) | undefined;
  onerror?: ((error: Error) => void) | undefined;
  onmessage?: ((message: JSONRPCMessage) => void) | undefined;

  private child: ChildProcess | undefined;
  // Large tool results arrive as one line; the SDK's default cap (10 MiB) would drop them.
  private readonly readBuffer = new ReadBuffer({ maxBufferSize: 64 * 1024 * 1024 });
  private stderr = '';
  private exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  private exited: Promise<void> | undefined;

  constructor(private readonly params: ProcessStdioParams) {}

  start(): Promise<void> {
    if (this.child) throw new Error('the MCP server process was already started');
    return new Promise((resolve, reject) => {
      const child = childProcess().spawn(this.params.command, [...this.params.args], {
        // The server's name is looked up on PATH's trusted entries (src/util/path-entries.ts): with a `.`
        // on PATH, `npx` would be the work tree's own.
        env: withTrustedPath(
          { ...getDefaultEnvironment(), ...this.params.env },
          this.params.cwd === undefined ? [] : [this.params.cwd],
        ),
        cwd: this.params.cwd,
        stdio: ['pipe', 'pipe', 'pipe'],
        detached: !IS_WINDOWS,
        windowsHide: true,
      });
      this.child = child;
      this.exited = new Promise((done) => {
        child.once('close', (code, signal) => {
          this.exit = { code, signal };
          done();
          this.onclose?.();
        });
      });
      child.once('spawn', () => resolve());
      child.once('error', (error) => {
        reject(error);
        this.onerror?.(error);
      });
      child.stdin?.on('error', (error) => this.onerror?.(error));
      child.stdout?.on('data', (chunk: Buffer) => this.receive(chunk));
      child.stderr?.setEncoding('utf8');
      child.stderr?.on('data', (text: string) => {
        this.stderr = (this.stderr + text).slice(-STDERR_TAIL_CHARS);
      });
    });
  }

  send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.child?.stdin;
    if (!stdin || this.exit || stdin.destroyed)
      return Promise.reject(new Error('the MCP server is not running'));
    return new Promise((resolve) => {
      if (stdin.write(serializeMessage(message))) resolve();
      else stdin.once('drain', () => resolve());
    });
  }

  /** Ends the server: stdin closed first (well-behaved servers exit), then SIGTERM, then SIGKILL. */
  async close(): Promise<void> {
    const child = this.child;
    if (!child || !this.exited) return;
    if (!this.exit) {
      child.stdin?.end();
      const grace = this.params.exitGraceMs ?? 500;
      if (!(await settlesWithin(this.exited, grace))) {
        this.signal(child, 'SIGTERM');
        if (!(await settlesWithin(this.exited, 2_000))) {
          this.signal(child, 'SIGKILL');
          await this.exited;
        }
      }
    }
    // The server is gone, but anything it left behind in its group goes too.
    this.signal(child, 'SIGKILL');
    this.readBuffer.clear();
  }

  get pid(): number | null {
    return this.child?.pid ?? null;
  }

  /** What the server wrote on stderr most recently (at most about 2,000 characters). */
  get stderrTail(): string {
    return this.stderr.trim();
  }

  /** "exited with code 1" / "was killed by SIGKILL", or null while it runs. */
  get exitDescription(): string | null {
    if (!this.exit) return null;
    return this.exit.signal ? `was killed by ${this.exit.signal}` : `exited with code ${this.exit.code}`;
  }

  private receive(chunk: Buffer): void {
    try {
      this.readBuffer.append(chunk);
    } catch (error) {
      this.onerror?.(error instanceof Error ? error : new Error(String(error)));
      return;
    }
    for (;;) {
      let message: JSONRPCMessage | null;
      try {
        message = this.readBuffer.readMessage();
      } catch (error) {
        this.onerror?.(error instanceof Error ? error : new Error(String(error)));
        continue;
      }
      if (message === null) return;
      this.onmessage?.(message);
    }
  }

  private signal(child: ChildProcess, signal: NodeJS.Signals): void {
    try {
      if (!IS_WINDOWS && child.pid !== undefined) process.kill(-child.pid, signal);
      else child.kill(signal);
    } catch {
      // Already gone.
    }
  }
}

function settlesWithin(promise: Promise<void>, ms: number): Promise<boolean> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    void promise.then(() => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}
