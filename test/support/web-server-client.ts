import type { ChildProcess } from 'node:child_process';
import WebSocket from 'ws';
import type { CliSandbox } from './run-cli.js';
import type { ScriptedCli } from './scripted-cli.js';
import type { JsonRpcMessage } from './wire-process-client.js';

/** A `kimi-ts web` child process started in a sandbox, with its URL and token. */
export interface WebServerProcess {
  child: ChildProcess;
  /** `http://127.0.0.1:PORT/` */
  base: string;
  port: number;
  token: string;
  stderr(): string;
  /** `fetch` of `path` with the token (unless `token: null`) and extra headers. */
  api(path: string, init?: RequestInit & { token?: string | null }): Promise<Response>;
  /** SIGTERM, then resolves with the exit code. */
  stop(): Promise<number | null>;
}

/** Deadline for the server to print its URL. */
const START_TIMEOUT_MS = 20_000;

/** `kimi-ts web` in the test's sandbox (`cli.sandbox`), stopped after the test. */
export async function startWebFor(cli: ScriptedCli, extra: string[] = []): Promise<WebServerProcess> {
  const started = await startWebServer(cli.sandbox, extra);
  cli.defer(() => started.stop());
  return started;
}

/**
 * Starts `kimi-ts …main web --no-open --port 0 …extra` and waits for the `Open:` line (`main`: the
 * main command's options, e.g. `--yolo`; `env`: more environment variables).
 */
export async function startWebServer(
  sandbox: CliSandbox,
  extra: string[] = [],
  main: string[] = [],
  env: Record<string, string> = {},
): Promise<WebServerProcess> {
  const child = sandbox.spawn([...main, 'web', '--no-open', '--port', '0', ...extra], { env });
  let stdout = '';
  let stderr = '';
  child.stderr!.setEncoding('utf8').on('data', (d: string) => {
    stderr += d;
  });
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  const opened = await new Promise<RegExpExecArray>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`web server did not start: ${stderr}`)),
      START_TIMEOUT_MS,
    );
    child.stdout!.setEncoding('utf8').on('data', (d: string) => {
      stdout += d;
      const match = /Open: (http:\/\/[^/]+\/)(?:#token=(\S+))?\n/.exec(stdout);
      if (match) {
        clearTimeout(timer);
        resolve(match);
      }
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`web server exited (${code}) before printing its URL: ${stderr}`));
    });
  });
  const base = opened[1]!;
  const token = opened[2] ?? '';
  return {
    child,
    base,
    port: Number(new URL(base).port),
    token,
    stderr: () => stderr,
    api: (path, init = {}) => {
      const headers = new Headers(init.headers);
      const used = init.token === undefined ? token : init.token;
      if (used !== null) headers.set('Authorization', `Bearer ${used}`);
      return fetch(new URL(path, base), { ...init, headers });
    },
    stop: async () => {
      if (child.exitCode === null) child.kill('SIGTERM');
      return exited;
    },
  };
}

/** A WebSocket wire client of one session's stream: JSON-RPC helpers over frames. */
export class WebWireClient {
  readonly messages: JsonRpcMessage[] = [];
  private readonly waiters: {
    match: (m: JsonRpcMessage) => boolean;
    resolve: (m: JsonRpcMessage) => void;
  }[] = [];
  private nextId = 1;
  readonly closed: Promise<number>;

  private constructor(readonly ws: WebSocket) {
    ws.on('message', (data) => {
      const message = JSON.parse(String(data)) as JsonRpcMessage;
      this.messages.push(message);
      for (const waiter of [...this.waiters])
        if (waiter.match(message)) {
          this.waiters.splice(this.waiters.indexOf(waiter), 1);
          waiter.resolve(message);
        }
    });
    this.closed = new Promise((resolve) => ws.on('close', (code) => resolve(code)));
  }

  /** Connects with the token as a subprotocol (as a browser does); rejects with the HTTP status when refused. */
  static connect(
    server: WebServerProcess,
    sessionId: string,
    options: { token?: string | null; headers?: Record<string, string> } = {},
  ): Promise<WebWireClient> {
    const token = options.token === undefined ? server.token : options.token;
    const url = `ws://127.0.0.1:${server.port}/api/sessions/${sessionId}/stream`;
    const protocols = token === null ? ['kimi-wire'] : ['kimi-wire', `bearer.${token}`];
    const ws = new WebSocket(url, protocols, { headers: options.headers });
    return new Promise((resolve, reject) => {
      ws.once('open', () => resolve(new WebWireClient(ws)));
      ws.once('unexpected-response', (_req, res) => {
        let body = '';
        res.setEncoding('utf8').on('data', (d: string) => {
          body += d;
        });
        res.on('end', () => reject(new RefusedUpgrade(res.statusCode ?? 0, body)));
      });
      ws.once('error', (error) => reject(error));
    });
  }

  send(message: object): void {
    this.ws.send(JSON.stringify(message));
  }

  request(method: string, params: unknown = {}): Promise<JsonRpcMessage> {
    const id = `c${this.nextId++}`;
    const response = this.waitFor((m) => m.id === id && m.method === undefined);
    this.send({ jsonrpc: '2.0', id, method, params });
    return response;
  }

  respond(id: unknown, result: unknown): void {
    this.send({ jsonrpc: '2.0', id, result });
  }

  waitFor(match: (m: JsonRpcMessage) => boolean): Promise<JsonRpcMessage> {
    const seen = this.messages.find(match);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve) => this.waiters.push({ match, resolve }));
  }

  /** The first agent request of this type (ApprovalRequest, QuestionRequest, …). */
  agentRequest(type: string): Promise<JsonRpcMessage> {
    return this.waitFor((m) => m.method === 'request' && (m.params as { type: string }).type === type);
  }

  event(type: string): Promise<JsonRpcMessage> {
    return this.waitFor((m) => m.method === 'event' && (m.params as { type: string }).type === type);
  }

  /** Event and request frames (not responses), as `type` names, in arrival order. */
  streamTypes(): string[] {
    return this.messages
      .filter((m) => m.method === 'event' || m.method === 'request')
      .map((m) => (m.params as { type: string }).type);
  }

  close(): Promise<number> {
    this.ws.close();
    return this.closed;
  }
}

export class RefusedUpgrade extends Error {
  constructor(
    readonly status: number,
    readonly body: string,
  ) {
    super(`upgrade refused with ${status}: ${body}`);
  }
}
