import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { WebSocketServer, WebSocket as WsClient, type WebSocket as WsSocket } from 'ws';
import {
  CLOSE_SESSION_DELETED,
  type CloseDiagnosis,
  type ConnectionState,
  type RetryInfo,
  WireClient,
  type WireClientHandlers,
} from './wire-client.js';

type Message = Record<string, unknown>;

/** Wakes the waiters whose condition holds, each time something the test watches has changed. */
class Changes {
  private readonly waiters: { holds: () => boolean; resolve: () => void }[] = [];
  notify(): void {
    for (const waiter of [...this.waiters])
      if (waiter.holds()) {
        this.waiters.splice(this.waiters.indexOf(waiter), 1);
        waiter.resolve();
      }
  }
  until(holds: () => boolean): Promise<void> {
    if (holds()) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push({ holds, resolve }));
  }
}

/** One connection as the server sees it: what the client sent, and frames the test sends back. */
class ServerPeer {
  readonly received: Message[] = [];
  constructor(
    private readonly socket: WsSocket,
    readonly offeredProtocols: string,
    private readonly changes: Changes,
  ) {
    socket.on('message', (data) => {
      this.received.push(JSON.parse(String(data)) as Message);
      changes.notify();
    });
  }
  methods(): unknown[] {
    return this.received.map((m) => m.method);
  }
  frame(message: unknown): void {
    this.socket.send(typeof message === 'string' ? message : JSON.stringify(message));
  }
  /** Answers the last call of `method` the client made, once it has arrived. */
  async answer(method: string, result: unknown): Promise<void> {
    await this.changes.until(() => this.received.some((m) => m.method === method));
    const call = [...this.received].reverse().find((m) => m.method === method);
    this.frame({ jsonrpc: '2.0', id: call?.id, result });
  }
  close(code?: number, reason?: string): void {
    this.socket.close(code, reason);
  }
}

/** A real WebSocket server on loopback that the test plays: it can refuse a connection's upgrade. */
class TestServer {
  readonly peers: ServerPeer[] = [];
  refuse = false;
  private constructor(
    private readonly server: WebSocketServer,
    private readonly changes: Changes,
  ) {}
  static async start(changes: Changes): Promise<TestServer> {
    let test!: TestServer;
    const server = new WebSocketServer({
      host: '127.0.0.1',
      port: 0,
      handleProtocols: (offered) => (offered.has('kimi-wire') ? 'kimi-wire' : false),
      verifyClient: (_info, done) => (test.refuse ? done(false, 503) : done(true)),
    });
    test = new TestServer(server, changes);
    server.on('connection', (socket, request) => {
      test.peers.push(new ServerPeer(socket, request.headers['sec-websocket-protocol'] ?? '', changes));
      changes.notify();
    });
    await new Promise<void>((resolve) => server.once('listening', () => resolve()));
    return test;
  }
  url(path = '/stream?token=t'): string {
    return `ws://127.0.0.1:${(this.server.address() as AddressInfo).port}${path}`;
  }
  async peer(n: number): Promise<ServerPeer> {
    await this.changes.until(() => this.peers.length > n);
    return this.peers[n]!;
  }
  close(): Promise<void> {
    for (const client of this.server.clients) client.terminate();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

// The reconnect timers are fake (advanced by the test); the sockets, the server and the bytes are real.
describe('WireClient', () => {
  let changes: Changes;
  let server: TestServer;
  /** The sockets the client created, counted as it creates them (synchronously). */
  let sockets: WsClient[];
  let log: string[];
  let states: ConnectionState[];
  let retries: RetryInfo[];
  let failures: string[];
  let client: WireClient;

  function handlers(): WireClientHandlers {
    const record =
      <T>(into: T[]) =>
      (value: T) => {
        into.push(value);
        changes.notify();
      };
    return {
      onEvent: (event, replayed) => record(log)(`event ${event.type}${replayed ? ' (replayed)' : ''}`),
      onRequest: (rpcId, type) => record(log)(`request ${type} ${rpcId ?? 'history'}`),
      onReset: () => record(log)('reset'),
      onState: record(states),
      onRetry: record(retries),
      onFailure: record(failures),
    };
  }

  function createSocket(url: string, protocols: string[]): WebSocket {
    const socket = new WsClient(url, protocols);
    // A browser's WebSocket reports a failed upgrade as a close; ws also emits `error`, which
    // would throw without a listener.
    socket.on('error', () => {});
    sockets.push(socket);
    return socket as unknown as WebSocket;
  }

  beforeEach(async () => {
    changes = new Changes();
    server = await TestServer.start(changes);
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    sockets = [];
    log = [];
    states = [];
    retries = [];
    failures = [];
    client = new WireClient({
      url: () => server.url(),
      backoffMs: { first: 100, max: 400 },
      protocols: () => ['kimi-wire', 'bearer.t'],
      createSocket,
      handlers: handlers(),
    });
  });
  afterEach(async () => {
    client.stop();
    vi.useRealTimers();
    await server.close();
  });

  async function connect(n: number): Promise<ServerPeer> {
    const peer = await server.peer(n);
    await peer.answer('initialize', { protocol_version: '1.10' });
    await peer.answer('replay', {});
    await changes.until(() => states.at(-1) === 'open');
    return peer;
  }

  it('initialises, then replays; events of the replay are marked, requests keep their ids', async () => {
    client.start();
    const peer = await server.peer(0);
    expect(peer.offeredProtocols).toBe('kimi-wire,bearer.t');
    await changes.until(() => peer.received.length > 0);
    expect(peer.received[0]).toMatchObject({ method: 'initialize', params: { protocol_version: '1.10' } });
    // A pending approval re-sent by initialize is live.
    peer.frame({
      jsonrpc: '2.0',
      method: 'request',
      id: 'live-1',
      params: { type: 'ApprovalRequest', payload: {} },
    });
    await peer.answer('initialize', {});
    await changes.until(() => peer.received.length > 1);
    expect(peer.received[1]).toMatchObject({ method: 'replay' });
    peer.frame({
      jsonrpc: '2.0',
      method: 'event',
      params: { type: 'TurnBegin', payload: { user_input: 'x' } },
    });
    peer.frame({
      jsonrpc: '2.0',
      method: 'request',
      id: 'old-1',
      params: { type: 'ApprovalRequest', payload: {} },
    });
    await peer.answer('replay', { status: 'finished' });
    await changes.until(() => states.at(-1) === 'open');
    peer.frame({ jsonrpc: '2.0', method: 'event', params: { type: 'TurnEnd', payload: {} } });
    await changes.until(() => log.length === 5);
    expect(log).toEqual([
      'reset',
      'request ApprovalRequest live-1',
      'event TurnBegin (replayed)',
      'request ApprovalRequest old-1',
      'event TurnEnd',
    ]);
  });

  it('reconnects with growing backoff after a drop, and replays again from a reset', async () => {
    client.start();
    (await connect(0)).close();
    await changes.until(() => retries.length === 1);
    expect(states.at(-1)).toBe('reconnecting');
    expect(retries[0]).toMatchObject({ attempt: 1, delayMs: 100 });
    expect(sockets).toHaveLength(1);
    // The second connection is refused before it opens.
    server.refuse = true;
    vi.advanceTimersByTime(100);
    expect(sockets).toHaveLength(2);
    await changes.until(() => retries.length === 2);
    expect(retries[1]).toMatchObject({ attempt: 2, delayMs: 200 });
    server.refuse = false;
    vi.advanceTimersByTime(199);
    expect(sockets).toHaveLength(2);
    vi.advanceTimersByTime(1);
    expect(sockets).toHaveLength(3);
    const third = await connect(1);
    // The second socket never opened: two connections, two resets.
    expect(log.filter((l) => l === 'reset')).toHaveLength(2);
    expect(third.methods()).toEqual(['initialize', 'replay']);
  });

  it('fails calls in flight when the socket drops, and stops for good on stop()', async () => {
    client.start();
    const peer = await connect(0);
    const prompt = client.call('prompt', { user_input: 'hi' });
    await changes.until(() => peer.methods().includes('prompt'));
    peer.close();
    await expect(prompt).rejects.toThrow(/dropped/);
    client.stop();
    vi.advanceTimersByTime(10_000);
    expect(sockets).toHaveLength(1);
    expect(states.at(-1)).toBe('closed');
  });

  it('ignores frames that are not JSON-RPC it knows', async () => {
    client.start();
    const peer = await connect(0);
    peer.frame('not json');
    peer.frame({ jsonrpc: '2.0', method: 'event', params: { payload: {} } });
    peer.frame(null);
    // Frames arrive in order: once this one is seen, the ones before it were read and dropped.
    peer.frame({ jsonrpc: '2.0', method: 'event', params: { type: 'TurnEnd', payload: {} } });
    await changes.until(() => log.length === 2);
    expect(log).toEqual(['reset', 'event TurnEnd']);
  });

  describe('after a close, the diagnosis decides', () => {
    function diagnosed(answers: CloseDiagnosis[]) {
      const asked = { count: 0 };
      client.stop();
      client = new WireClient({
        url: () => server.url('/stream'),
        backoffMs: { first: 100, max: 400 },
        createSocket,
        diagnose: async () => answers[Math.min(asked.count++, answers.length - 1)]!,
        handlers: handlers(),
      });
      return { asked };
    }

    it('a permanent refusal: failed, with the reason, and no more sockets', async () => {
      diagnosed([{ kind: 'permanent', reason: 'There is no session with this id.' }]);
      server.refuse = true;
      client.start();
      await changes.until(() => states.at(-1) === 'failed');
      expect(failures).toEqual(['There is no session with this id.']);
      vi.advanceTimersByTime(60_000);
      expect(sockets).toHaveLength(1);
      // "Try again" starts over.
      client.start();
      expect(sockets).toHaveLength(2);
      expect(states.at(-1)).toBe('connecting');
    });

    it('a transient one: retries with growing backoff, telling why and when', async () => {
      diagnosed([{ kind: 'transient', reason: 'The server cannot be reached.' }]);
      server.refuse = true;
      client.start();
      await changes.until(() => retries.length === 1);
      expect(retries).toEqual([{ attempt: 1, delayMs: 100, reason: 'The server cannot be reached.' }]);
      vi.advanceTimersByTime(100);
      expect(sockets).toHaveLength(2);
      await changes.until(() => retries.length === 2);
      expect(retries.at(-1)).toMatchObject({ attempt: 2, delayMs: 200 });
      expect(states.at(-1)).toBe('reconnecting');
      expect(failures).toEqual([]);
    });

    it('close code 4404 (the session was deleted): failed at once, without asking', async () => {
      const { asked } = diagnosed([{ kind: 'ok' }]);
      client.start();
      (await connect(0)).close(CLOSE_SESSION_DELETED, 'The session was deleted.');
      await changes.until(() => states.at(-1) === 'failed');
      expect(asked.count).toBe(0);
      expect(failures).toEqual(['The session was deleted.']);
    });
  });
});
