import { stat } from 'node:fs/promises';
import type { AgentSession } from '../../../app/agent-session.js';
import { wireMessageToJSON } from '../../../wire/message-json.js';
import { readWireFile } from '../../../wire/wire-file.js';
import {
  ErrorCodes,
  eventFrame,
  frameText,
  type InboundMessage,
  type OutboundFrame,
  parseInboundLine,
  serveWire,
  type WireTransport,
} from '../../common/wire-protocol/index.js';
import { ReplayLog } from './replay-log.js';

type ResponseFrame = Extract<OutboundFrame, { kind: 'response' }>;

/** One connected WebSocket, as the host sees it. */
export interface HostClient {
  /** Sends one JSON-RPC message as one frame. */
  send(text: string): void;
  /** Ends the connection with a WebSocket close code and reason (the host is going away). */
  close?(code: number, reason: string): void;
}

interface ClientState {
  readonly client: HostClient;
  /** While its `replay` runs, live frames wait in the log and reach it at the end of the replay. */
  replaying: boolean;
}

/** What a `replay` answers (the same shape as wire mode's). */
interface ReplayResult {
  status: 'finished';
  events: number;
  requests: number;
}

/**
 * One session served to any number of WebSocket clients through one wire protocol core
 * (`serveWire`). The host is the core's transport: it tags each client's request ids so every
 * response goes back to the client that asked, fans events and requests out to every client, and
 * keeps each of them (in order) in a log so a client that (re)connects and calls `replay` gets the
 * session's wire.jsonl as it was when the host opened, then everything sent since, then goes on live:
 * nothing missing, nothing twice. A client's answer to a request settles it once; later answers to
 * the same request are ignored by the core. A client leaving never cancels the turn.
 */
export class SessionHost implements WireTransport {
  readonly failed = false;
  /** Resolves with the core's exit code once the host has shut down. */
  readonly done: Promise<number>;
  private readonly clients = new Map<number, ClientState>();
  private readonly log: ReplayLog;
  private deliver: ((message: InboundMessage) => void) | null = null;
  private endReceive: (code: number) => void = () => {};
  private initializeAnswer: ResponseFrame | null = null;
  private readonly initializeIds = new Set<string>();
  private nextClientId = 1;
  private closing = false;

  private constructor(
    readonly session: AgentSession,
    /** Bytes of wire.jsonl written before the host opened: what a replay reads from the file. */
    private readonly baseBytes: number,
    private readonly onIdle: (host: SessionHost) => void,
    replayMemoryBytes: number | undefined,
  ) {
    this.log = new ReplayLog(replayMemoryBytes);
    this.done = serveWire({
      session,
      transport: this,
      stderr: (text) => process.stderr.write(`session ${session.sessionId}: ${text}`),
    });
  }

  /**
   * Serves `session` (already opened, so this process holds its lock) until `shutdown`. The frames
   * sent since are kept for replays, at most `replayMemoryBytes` of them in memory (replay-log.ts).
   */
  static async open(
    session: AgentSession,
    onIdle: (host: SessionHost) => void,
    options: { replayMemoryBytes?: number | undefined } = {},
  ): Promise<SessionHost> {
    const baseBytes = await stat(session.wireFile).then(
      (info) => info.size,
      () => 0,
    );
    return new SessionHost(session, baseBytes, onIdle, options.replayMemoryBytes);
  }

  /** Bytes of the replay log held in memory now (the rest is on disk). */
  get replayMemoryUsed(): number {
    return this.log.memoryUsed;
  }

  /** Resolves when the replay log has no spill write under way. */
  replaySpillsSettled(): Promise<void> {
    return this.log.spillsSettled();
  }

  get sessionId(): string {
    return this.session.sessionId;
  }

  get clientCount(): number {
    return this.clients.size;
  }

  /** Whether a turn runs now. */
  get isBusy(): boolean {
    return this.session.isBusy;
  }

  /** Whether nothing would be lost by closing: no client, no turn running. */
  get isIdle(): boolean {
    return this.clients.size === 0 && !this.session.isBusy;
  }

  /** Adds a client; returns the functions it uses to talk and to leave. */
  attach(client: HostClient): { receive: (text: string) => void; detach: () => void } {
    const id = this.nextClientId++;
    this.clients.set(id, { client, replaying: false });
    return {
      receive: (text) => this.fromClient(id, text),
      detach: () => {
        this.clients.delete(id);
        if (this.isIdle) this.onIdle(this);
      },
    };
  }

  /**
   * Stops the core (cancelling a running turn, closing what waits for a client) and closes the session.
   * With `farewell`, every client still attached is closed with that code and reason first.
   */
  async shutdown(farewell?: { code: number; reason: string }): Promise<void> {
    if (farewell)
      for (const { client } of [...this.clients.values()]) client.close?.(farewell.code, farewell.reason);
    if (!this.closing) {
      this.closing = true;
      this.endReceive(0);
    }
    await this.done;
    await this.session.close();
    await this.log.close();
  }

  // --- WireTransport: the core's side ---

  receive(onMessage: (message: InboundMessage) => void): Promise<number> {
    this.deliver = onMessage;
    return new Promise<number>((resolve) => {
      this.endReceive = resolve;
      if (this.closing) resolve(0);
    });
  }

  send(frames: readonly OutboundFrame[]): void {
    for (const frame of frames) {
      if (frame.kind === 'response') this.routeResponse(frame);
      else this.broadcast(frame);
    }
  }

  flush(): Promise<void> {
    return Promise.resolve();
  }

  close(): void {
    this.deliver = null;
  }

  // --- routing ---

  private fromClient(clientId: number, text: string): void {
    const state = this.clients.get(clientId);
    if (state === undefined || this.closing) return;
    const message = parseInboundLine(text);
    switch (message.kind) {
      case 'invalid':
        state.client.send(frameText({ kind: 'response', id: message.id, body: { error: message.error } }));
        return;
      case 'response':
      case 'notification':
        this.deliver?.(message);
        return;
      case 'request':
        if (message.method === 'replay') {
          void this.replayTo(state, message.id);
          return;
        }
        if (message.method === 'initialize' && this.initializeAnswer !== null) {
          // The session is set up once (by its first client); later clients get the same answer.
          state.client.send(frameText({ ...this.initializeAnswer, id: message.id }));
          return;
        }
        {
          const tagged = `${clientId}:${message.id}`;
          if (message.method === 'initialize') this.initializeIds.add(tagged);
          this.deliver?.({ ...message, id: tagged });
        }
        return;
    }
  }

  private routeResponse(frame: ResponseFrame): void {
    const tagged = typeof frame.id === 'string' ? /^(\d+):(.*)$/s.exec(frame.id) : null;
    if (tagged === null) return; // no client asked (the core answers every client request by its id)
    if (this.initializeIds.delete(frame.id as string) && 'result' in frame.body)
      this.initializeAnswer ??= frame;
    const state = this.clients.get(Number(tagged[1]));
    state?.client.send(frameText({ ...frame, id: tagged[2]! }));
    if (this.isIdle) this.onIdle(this);
  }

  private broadcast(frame: Exclude<OutboundFrame, ResponseFrame>): void {
    this.log.append({ kind: frame.kind, text: frame.text });
    for (const state of this.clients.values()) if (!state.replaying) state.client.send(frame.text);
  }

  /**
   * The session so far to one client: wire.jsonl as it was when the host opened, then the log
   * (everything broadcast since, including what arrives while the file is read), then its answer.
   */
  private async replayTo(state: ClientState, id: string): Promise<void> {
    if (state.replaying) {
      state.client.send(
        frameText({
          kind: 'response',
          id,
          body: { error: { code: ErrorCodes.INVALID_STATE, message: 'A replay is already running.' } },
        }),
      );
      return;
    }
    state.replaying = true;
    const result: ReplayResult = { status: 'finished', events: 0, requests: 0 };
    try {
      for (const frame of await this.fileFrames()) {
        state.client.send(frameText(frame));
        if (frame.kind === 'request') result.requests++;
        else result.events++;
      }
    } catch {
      // An unreadable file replays as empty; the log still follows.
    }
    // The log ends synchronously: nothing is broadcast between its last frame and going live.
    try {
      await this.log.replay((frame) => {
        state.client.send(frame.text);
        if (frame.kind === 'request') result.requests++;
        else result.events++;
      });
    } catch {
      // The spill file could not be read: the client gets an error instead of a replay with a hole.
      state.replaying = false;
      state.client.send(
        frameText({
          kind: 'response',
          id,
          body: { error: { code: ErrorCodes.INTERNAL_ERROR, message: 'The replay log could not be read.' } },
        }),
      );
      return;
    }
    state.replaying = false;
    state.client.send(frameText({ kind: 'response', id, body: { result } }));
  }

  private async fileFrames(): Promise<OutboundFrame[]> {
    if (this.baseBytes === 0) return [];
    // Line by line with each line bounded: a huge line in the file is skipped, not held.
    const { records } = await readWireFile(this.session.wireFile, { end: this.baseBytes - 1 });
    const frames: OutboundFrame[] = [];
    // Written before this host opened, so settled: a past request is history (an event), as in the
    // wire-mode replay; only this host's own requests, still in its log, may wait for an answer.
    for (const { message } of records) frames.push(eventFrame(wireMessageToJSON(message)));
    return frames;
  }
}
