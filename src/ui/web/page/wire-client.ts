import type { WireEvent } from './wire-types.js';

/**
 * A wire client over WebSocket: JSON-RPC 2.0, one message per frame, wire protocol 1.10 as `--wire`
 * speaks it. It reconnects with backoff when the socket drops; after each (re)connect it initialises
 * and asks for a replay, and tells its owner first (`onReset`) so the page rebuilds its picture from
 * the replay instead of adding the replayed events to what it had (no duplicates, nothing missing).
 */

export const PROTOCOL_VERSION = '1.10';

/** `failed`: the session cannot be served (unknown, deleted, locked, unreadable): no more retries. */
export type ConnectionState = 'connecting' | 'open' | 'reconnecting' | 'closed' | 'failed';

/**
 * Why a connection closed, as the server tells it to a plain GET of the stream URL (a browser never
 * sees a refused upgrade's answer): `ok` (it would be served: retry), `transient` (the server cannot
 * be reached, or answered 5xx: retry with backoff), `permanent` (give up and say why).
 */
export type CloseDiagnosis =
  | { kind: 'ok' }
  | { kind: 'transient'; reason: string }
  | { kind: 'permanent'; reason: string };

/** The close code the server uses for a session deleted under its clients. */
export const CLOSE_SESSION_DELETED = 4404;

/** A reconnect that is waiting: which attempt, when, and why the last one failed. */
export interface RetryInfo {
  attempt: number;
  delayMs: number;
  reason: string | null;
}

/** WebSocket.OPEN, spelled out: the constant is not global everywhere the tests run. */
const SOCKET_OPEN = 1;

export interface WireClientHandlers {
  onEvent(event: WireEvent, replayed: boolean): void;
  /**
   * A request from the agent. One from the replay may still be waiting (the server replays what it
   * sent since it opened the session), so it keeps its id: an answer to one already settled is ignored
   * by the server, and the replay's later events (ApprovalResponse, the ToolResult) close its panel.
   */
  onRequest(rpcId: string | null, type: string, payload: unknown): void;
  /** A new connection is about to replay the session: forget what was shown. */
  onReset(): void;
  onState(state: ConnectionState): void;
  /** A reconnect was scheduled (shown as a countdown). */
  onRetry?(retry: RetryInfo): void;
  /** The connection gave up for good (`failed`), with the reason for a person. */
  onFailure?(reason: string): void;
}

export interface WireClientOptions {
  url: () => string;
  /** WebSocket subprotocols to offer (the server's, and the token as `bearer.<token>`). */
  protocols?: () => string[];
  handlers: WireClientHandlers;
  /** First and longest wait between reconnects. */
  backoffMs?: { first: number; max: number };
  createSocket?: (url: string, protocols: string[]) => WebSocket;
  /** Asked after every unexpected close: retry, retry later, or give up. */
  diagnose?: () => Promise<CloseDiagnosis>;
}

export class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

interface PendingCall {
  resolve(result: unknown): void;
  reject(error: Error): void;
}

export class WireClient {
  private socket: WebSocket | null = null;
  private readonly calls = new Map<string, PendingCall>();
  private nextId = 1;
  private stopped = false;
  private attempt = 0;
  private retryTimer: ReturnType<typeof setTimeout> | null = null;
  /** Whether the frames now arriving are the replay's (events are marked so for the owner). */
  private replaying = false;

  constructor(private readonly options: WireClientOptions) {}

  start(): void {
    this.stopped = false;
    this.attempt = 0;
    this.open();
  }

  /** Closes for good (switching sessions, leaving the page). */
  stop(): void {
    this.stopped = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = null;
    this.socket?.close(1000, 'closed by the page');
    this.socket = null;
    this.failCalls('the connection was closed');
    this.options.handlers.onState('closed');
  }

  /** Drops the socket as a network failure would (tests, and a "reconnect" button). */
  dropConnection(): void {
    this.socket?.close(4000, 'dropped by the page');
  }

  call(method: string, params: unknown): Promise<unknown> {
    const socket = this.socket;
    if (!socket || socket.readyState !== SOCKET_OPEN) return Promise.reject(new Error('not connected'));
    const id = `web-${this.nextId++}`;
    return new Promise((resolve, reject) => {
      this.calls.set(id, { resolve, reject });
      socket.send(JSON.stringify({ jsonrpc: '2.0', id, method, params }));
    });
  }

  /** Answers a request of the agent. */
  respond(rpcId: string, result: unknown): boolean {
    const socket = this.socket;
    if (!socket || socket.readyState !== SOCKET_OPEN) return false;
    socket.send(JSON.stringify({ jsonrpc: '2.0', id: rpcId, result }));
    return true;
  }

  private open(): void {
    const { handlers } = this.options;
    handlers.onState(this.attempt === 0 ? 'connecting' : 'reconnecting');
    let socket: WebSocket;
    try {
      const create = this.options.createSocket ?? ((url, protocols) => new WebSocket(url, protocols));
      socket = create(this.options.url(), this.options.protocols?.() ?? []);
    } catch {
      this.scheduleReconnect();
      return;
    }
    this.socket = socket;
    socket.onopen = () => {
      void this.handshake(socket);
    };
    socket.onmessage = (message) => {
      if (typeof message.data === 'string') this.handleFrame(message.data);
    };
    socket.onclose = (event?: { code?: number; reason?: string }) => {
      if (this.socket !== socket) return;
      this.socket = null;
      this.failCalls('the connection dropped');
      if (this.stopped) return;
      if (event?.code === CLOSE_SESSION_DELETED) {
        this.fail(event.reason || 'The session was deleted.');
        return;
      }
      void this.afterClose();
    };
  }

  private async handshake(socket: WebSocket): Promise<void> {
    // Reset first: `initialize` re-sends the requests still waiting for an answer, which must stay.
    this.options.handlers.onReset();
    try {
      await this.call('initialize', {
        protocol_version: PROTOCOL_VERSION,
        client: { name: 'kimi-ts-web', version: '1' },
        capabilities: {
          supports_question: true,
          supports_plan_mode: true,
          supports_tool_output: true,
          // The page asks the person whether to trust the session's folder.
          workspace_trust: true,
        },
      });
      this.replaying = true;
      await this.call('replay', {});
    } catch {
      // The socket dropped during the handshake: onclose schedules the next attempt.
      return;
    } finally {
      this.replaying = false;
    }
    if (this.socket !== socket) return;
    this.attempt = 0;
    this.options.handlers.onState('open');
  }

  private handleFrame(text: string): void {
    let message: Record<string, unknown>;
    try {
      message = JSON.parse(text) as Record<string, unknown>;
    } catch {
      return;
    }
    if (message === null || typeof message !== 'object') return;
    const { handlers } = this.options;
    if (message.method === 'event') {
      const envelope = message.params as WireEvent | undefined;
      if (envelope && typeof envelope.type === 'string') handlers.onEvent(envelope, this.replaying);
      return;
    }
    if (message.method === 'request') {
      const envelope = message.params as { type?: unknown; payload?: unknown } | undefined;
      if (!envelope || typeof envelope.type !== 'string') return;
      const rpcId = typeof message.id === 'string' ? message.id : null;
      handlers.onRequest(rpcId, envelope.type, envelope.payload);
      return;
    }
    if (typeof message.id === 'string' && ('result' in message || 'error' in message)) {
      const call = this.calls.get(message.id);
      if (!call) return;
      this.calls.delete(message.id);
      const error = message.error as
        | { code?: number; message?: string; data?: { detail?: unknown } }
        | undefined;
      // `data.detail` says what to do (how to configure a model after -32001 "LLM is not set").
      const detail = typeof error?.data?.detail === 'string' ? `\n\n${error.data.detail}` : '';
      if (error) call.reject(new RpcError(error.code ?? 0, `${error.message ?? 'error'}${detail}`));
      else call.resolve(message.result);
    }
  }

  /** Asks why the socket closed (when the owner can tell), then retries or gives up. */
  private async afterClose(): Promise<void> {
    const diagnose = this.options.diagnose;
    if (diagnose === undefined) return this.scheduleReconnect(null);
    this.options.handlers.onState('reconnecting');
    let diagnosis: CloseDiagnosis;
    try {
      diagnosis = await diagnose();
    } catch {
      diagnosis = { kind: 'transient', reason: 'The server cannot be reached.' };
    }
    if (this.stopped || this.socket !== null) return;
    if (diagnosis.kind === 'permanent') this.fail(diagnosis.reason);
    else this.scheduleReconnect(diagnosis.kind === 'transient' ? diagnosis.reason : null);
  }

  /** Gives up: no more reconnects until `start()` is called again (a "Retry" button). */
  private fail(reason: string): void {
    this.stopped = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = null;
    this.options.handlers.onState('failed');
    this.options.handlers.onFailure?.(reason);
  }

  private scheduleReconnect(reason: string | null = null): void {
    const { first, max } = this.options.backoffMs ?? { first: 250, max: 5000 };
    const delay = Math.min(max, first * 2 ** this.attempt);
    this.attempt++;
    this.options.handlers.onState('reconnecting');
    this.options.handlers.onRetry?.({ attempt: this.attempt, delayMs: delay, reason });
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      if (!this.stopped) this.open();
    }, delay);
  }

  private failCalls(why: string): void {
    for (const call of this.calls.values()) call.reject(new Error(why));
    this.calls.clear();
  }
}
