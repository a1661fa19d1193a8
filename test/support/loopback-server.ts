import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A request the loopback server received. */
export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: unknown;
  rawBody: string;
}

/** How the server answers one request. */
export type Responder = (req: RecordedRequest, res: ServerResponse) => void | Promise<void>;

/**
 * A loopback HTTP server for provider tests. Each request is answered by the next responder in the
 * queue (or the fallback), and every request is recorded. Speaks whatever the responder writes, so
 * tests can emit a vendor's real SSE format, error statuses, or drop the connection mid-stream.
 */
export class LoopbackServer {
  readonly requests: RecordedRequest[] = [];
  private readonly queue: Responder[] = [];
  private readonly server: Server;
  private readonly sockets = new Set<import('node:net').Socket>();
  fallback: Responder = (_req, res) => {
    res.writeHead(500, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ error: { message: 'no scripted response left' } }));
  };

  private constructor() {
    this.server = createServer((req, res) => void this.handle(req, res));
    this.server.on('connection', (socket) => {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
    });
  }

  static async start(): Promise<LoopbackServer> {
    const s = new LoopbackServer();
    await new Promise<void>((resolve) => s.server.listen(0, '127.0.0.1', resolve));
    return s;
  }

  get url(): string {
    const { port } = this.server.address() as AddressInfo;
    return `http://127.0.0.1:${port}`;
  }

  private readonly waiters: { count: number; resolve: () => void }[] = [];

  /** Resolves once `count` requests have arrived in all. */
  waitForRequests(count: number): Promise<void> {
    if (this.requests.length >= count) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push({ count, resolve }));
  }

  /** Queues responders, one per future request, in order. */
  enqueue(...responders: Responder[]): void {
    this.queue.push(...responders);
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const rawBody = Buffer.concat(chunks).toString('utf8');
    let body: unknown = rawBody;
    try {
      body = rawBody ? JSON.parse(rawBody) : undefined;
    } catch {
      // keep the raw text
    }
    const recorded: RecordedRequest = {
      method: req.method ?? '',
      path: req.url ?? '',
      headers: req.headers,
      body,
      rawBody,
    };
    this.requests.push(recorded);
    for (const waiter of this.waiters.filter((w) => this.requests.length >= w.count)) {
      this.waiters.splice(this.waiters.indexOf(waiter), 1);
      waiter.resolve();
    }
    const responder = this.queue.shift() ?? this.fallback;
    try {
      await responder(recorded, res);
    } catch {
      res.destroy();
    }
  }
}

/** Starts an SSE response. */
export function startSSE(res: ServerResponse, headers: Record<string, string> = {}): void {
  res.writeHead(200, {
    'content-type': 'text/event-stream',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
    ...headers,
  });
}

/** Writes one SSE event: `data:` only (OpenAI) or with an `event:` line (Anthropic, Responses). */
export function writeSSE(res: ServerResponse, data: unknown, event?: string): void {
  const payload = typeof data === 'string' ? data : JSON.stringify(data);
  res.write(`${event ? `event: ${event}\n` : ''}data: ${payload}\n\n`);
}

/** A responder that answers with an HTTP error status and a JSON body. */
export function errorResponder(
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): Responder {
  return (_req, res) => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(JSON.stringify(body));
  };
}

/** A promise with its resolve function, for holding a stream open until a test says so. */
export function gate<T = void>(): { promise: Promise<T>; open: (value: T) => void } {
  let open!: (value: T) => void;
  const promise = new Promise<T>((resolve) => {
    open = resolve;
  });
  return { promise, open };
}
