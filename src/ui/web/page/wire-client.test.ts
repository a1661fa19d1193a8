import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  CLOSE_SESSION_DELETED,
  type CloseDiagnosis,
  type ConnectionState,
  type RetryInfo,
  WireClient,
} from './wire-client.js';

/** A socket the test plays the server of: it sees what the client sent and sends frames back. */
class FakeSocket {
  readyState = 0;
  sent: Record<string, unknown>[] = [];
  onopen: (() => void) | null = null;
  onmessage: ((message: { data: unknown }) => void) | null = null;
  onclose: ((event?: { code?: number; reason?: string }) => void) | null = null;
  constructor(readonly url: string) {}
  send(text: string) {
    this.sent.push(JSON.parse(text) as Record<string, unknown>);
  }
  close(code?: number, reason?: string) {
    this.readyState = 3;
    this.onclose?.(code === undefined ? undefined : { code, reason: reason ?? '' });
  }
  open() {
    this.readyState = 1;
    this.onopen?.();
  }
  frame(message: unknown) {
    this.onmessage?.({ data: JSON.stringify(message) });
  }
  /** Answers the last call of `method` the client made. */
  answer(method: string, result: unknown) {
    const call = [...this.sent].reverse().find((m) => m.method === method);
    if (!call) throw new Error(`no ${method} call`);
    this.frame({ jsonrpc: '2.0', id: call.id, result });
  }
}

/** Lets the client's awaits run (timers are fake; promise jobs are not). */
async function flush() {
  for (let i = 0; i < 5; i++) await Promise.resolve();
}

describe('WireClient', () => {
  let sockets: FakeSocket[];
  let log: string[];
  let states: ConnectionState[];
  let client: WireClient;

  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    sockets = [];
    log = [];
    states = [];
    client = new WireClient({
      url: () => 'ws://test/stream?token=t',
      backoffMs: { first: 100, max: 400 },
      protocols: () => ['kimi-wire', 'bearer.t'],
      createSocket: (url, protocols) => {
        expect(protocols).toEqual(['kimi-wire', 'bearer.t']);
        const socket = new FakeSocket(url);
        sockets.push(socket);
        return socket as unknown as WebSocket;
      },
      handlers: {
        onEvent: (event, replayed) => log.push(`event ${event.type}${replayed ? ' (replayed)' : ''}`),
        onRequest: (rpcId, type) => log.push(`request ${type} ${rpcId ?? 'history'}`),
        onReset: () => log.push('reset'),
        onState: (state) => states.push(state),
      },
    });
  });
  afterEach(() => {
    client.stop();
    vi.useRealTimers();
  });

  async function connect(socket: FakeSocket) {
    socket.open();
    socket.answer('initialize', { protocol_version: '1.10' });
    await flush();
  }

  it('initialises, then replays; events of the replay are marked, requests keep their ids', async () => {
    client.start();
    const socket = sockets[0]!;
    socket.open();
    expect(socket.sent[0]).toMatchObject({ method: 'initialize', params: { protocol_version: '1.10' } });
    // A pending approval re-sent by initialize is live.
    socket.frame({
      jsonrpc: '2.0',
      method: 'request',
      id: 'live-1',
      params: { type: 'ApprovalRequest', payload: {} },
    });
    socket.answer('initialize', {});
    await flush();
    expect(socket.sent[1]).toMatchObject({ method: 'replay' });
    socket.frame({
      jsonrpc: '2.0',
      method: 'event',
      params: { type: 'TurnBegin', payload: { user_input: 'x' } },
    });
    socket.frame({
      jsonrpc: '2.0',
      method: 'request',
      id: 'old-1',
      params: { type: 'ApprovalRequest', payload: {} },
    });
    socket.answer('replay', { status: 'finished' });
    await flush();
    socket.frame({ jsonrpc: '2.0', method: 'event', params: { type: 'TurnEnd', payload: {} } });
    expect(log).toEqual([
      'reset',
      'request ApprovalRequest live-1',
      'event TurnBegin (replayed)',
      'request ApprovalRequest old-1',
      'event TurnEnd',
    ]);
    expect(states.at(-1)).toBe('open');
  });

  it('reconnects with growing backoff after a drop, and replays again from a reset', async () => {
    client.start();
    await connect(sockets[0]!);
    sockets[0]!.answer('replay', {});
    await flush();
    sockets[0]!.close();
    expect(states.at(-1)).toBe('reconnecting');
    expect(sockets).toHaveLength(1);
    vi.advanceTimersByTime(100);
    expect(sockets).toHaveLength(2);
    sockets[1]!.close();
    vi.advanceTimersByTime(199);
    expect(sockets).toHaveLength(2);
    vi.advanceTimersByTime(1);
    expect(sockets).toHaveLength(3);
    await connect(sockets[2]!);
    // The second socket never opened: two connections, two resets.
    expect(log.filter((l) => l === 'reset')).toHaveLength(2);
    expect(sockets[2]!.sent.map((m) => m.method)).toEqual(['initialize', 'replay']);
  });

  it('fails calls in flight when the socket drops, and stops for good on stop()', async () => {
    client.start();
    await connect(sockets[0]!);
    sockets[0]!.answer('replay', {});
    await flush();
    const prompt = client.call('prompt', { user_input: 'hi' });
    sockets[0]!.close();
    await expect(prompt).rejects.toThrow(/dropped/);
    client.stop();
    vi.advanceTimersByTime(10_000);
    expect(sockets).toHaveLength(1);
    expect(states.at(-1)).toBe('closed');
  });

  it('ignores frames that are not JSON-RPC it knows', async () => {
    client.start();
    await connect(sockets[0]!);
    sockets[0]!.onmessage?.({ data: 'not json' });
    sockets[0]!.frame({ jsonrpc: '2.0', method: 'event', params: { payload: {} } });
    sockets[0]!.frame(null);
    expect(log).toEqual(['reset']);
  });

  describe('after a close, the diagnosis decides', () => {
    function diagnosed(answers: CloseDiagnosis[]) {
      const failures: string[] = [];
      const retries: RetryInfo[] = [];
      const asked = { count: 0 };
      client.stop();
      client = new WireClient({
        url: () => 'ws://test/stream',
        backoffMs: { first: 100, max: 400 },
        createSocket: (url) => {
          const socket = new FakeSocket(url);
          sockets.push(socket);
          return socket as unknown as WebSocket;
        },
        diagnose: async () => answers[Math.min(asked.count++, answers.length - 1)]!,
        handlers: {
          onEvent: () => {},
          onRequest: () => {},
          onReset: () => {},
          onState: (state) => states.push(state),
          onRetry: (retry) => retries.push(retry),
          onFailure: (reason) => failures.push(reason),
        },
      });
      return { failures, retries, asked };
    }

    it('a permanent refusal: failed, with the reason, and no more sockets', async () => {
      const { failures } = diagnosed([{ kind: 'permanent', reason: 'There is no session with this id.' }]);
      client.start();
      sockets[0]!.close();
      await flush();
      expect(states.at(-1)).toBe('failed');
      expect(failures).toEqual(['There is no session with this id.']);
      vi.advanceTimersByTime(60_000);
      expect(sockets).toHaveLength(1);
      // "Try again" starts over.
      client.start();
      expect(sockets).toHaveLength(2);
      expect(states.at(-1)).toBe('connecting');
    });

    it('a transient one: retries with growing backoff, telling why and when', async () => {
      const { failures, retries } = diagnosed([
        { kind: 'transient', reason: 'The server cannot be reached.' },
      ]);
      client.start();
      sockets[0]!.close();
      await flush();
      expect(retries).toEqual([{ attempt: 1, delayMs: 100, reason: 'The server cannot be reached.' }]);
      vi.advanceTimersByTime(100);
      sockets[1]!.close();
      await flush();
      expect(retries.at(-1)).toMatchObject({ attempt: 2, delayMs: 200 });
      expect(states.at(-1)).toBe('reconnecting');
      expect(failures).toEqual([]);
    });

    it('close code 4404 (the session was deleted): failed at once, without asking', async () => {
      const { failures, asked } = diagnosed([{ kind: 'ok' }]);
      client.start();
      await connect(sockets[0]!);
      sockets[0]!.close(CLOSE_SESSION_DELETED, 'The session was deleted.');
      await flush();
      expect(asked.count).toBe(0);
      expect(failures).toEqual(['The session was deleted.']);
      expect(states.at(-1)).toBe('failed');
    });
  });
});
