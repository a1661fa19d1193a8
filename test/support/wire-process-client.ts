import type { ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';

export interface JsonRpcMessage {
  jsonrpc: '2.0';
  id?: string | number | null;
  method?: string;
  params?: unknown;
  result?: unknown;
  error?: { code: number; message: string; data?: unknown };
}

/** A wire-mode client over a child process's stdio: sends requests, collects every message. */
export class WireClient {
  readonly messages: JsonRpcMessage[] = [];
  private readonly waiters: {
    match: (m: JsonRpcMessage) => boolean;
    resolve: (m: JsonRpcMessage) => void;
  }[] = [];
  private nextId = 1;
  private readonly listeners: ((m: JsonRpcMessage) => void)[] = [];

  constructor(readonly child: ChildProcess) {
    createInterface({ input: child.stdout! }).on('line', (line) => {
      const message = JSON.parse(line) as JsonRpcMessage;
      this.messages.push(message);
      for (const listener of this.listeners) listener(message);
      for (const waiter of [...this.waiters]) {
        if (waiter.match(message)) {
          this.waiters.splice(this.waiters.indexOf(waiter), 1);
          waiter.resolve(message);
        }
      }
    });
  }

  send(message: object): void {
    this.child.stdin!.write(`${JSON.stringify(message)}\n`);
  }

  /** Sends a request and resolves with its response. */
  request(method: string, params: unknown = {}): Promise<JsonRpcMessage> {
    const id = `c${this.nextId++}`;
    const response = this.waitFor((m) => m.id === id && m.method === undefined);
    this.send({ jsonrpc: '2.0', id, method, params });
    return response;
  }

  /** Resolves with the first message (already received or future) that matches. */
  waitFor(match: (m: JsonRpcMessage) => boolean): Promise<JsonRpcMessage> {
    const seen = this.messages.find(match);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve) => this.waiters.push({ match, resolve }));
  }

  /** Resolves with the next event of this type. */
  event(type: string): Promise<JsonRpcMessage> {
    return this.waitFor((m) => m.method === 'event' && (m.params as { type: string }).type === type);
  }

  /**
   * Answers every ApprovalRequest, now and later, with `decide(payload)` (approve / reject); returns
   * the payloads answered so far.
   */
  answerApprovals(
    decide: (payload: { id: string; action: string; description: string }) => 'approve' | 'reject',
  ): { id: string; action: string; description: string }[] {
    const answered: { id: string; action: string; description: string }[] = [];
    const onMessage = (message: JsonRpcMessage) => {
      const params = message.params as {
        type?: string;
        payload?: { id: string; action: string; description: string };
      };
      if (message.method !== 'request' || params?.type !== 'ApprovalRequest' || !params.payload) return;
      answered.push(params.payload);
      this.send({
        jsonrpc: '2.0',
        id: message.id,
        result: { request_id: params.payload.id, response: decide(params.payload) },
      });
    };
    for (const message of this.messages) onMessage(message);
    this.listeners.push(onMessage);
    return answered;
  }

  /** Calls `listener` with every message from now on. */
  listen(listener: (message: JsonRpcMessage) => void): void {
    this.listeners.push(listener);
  }

  eventTypes(): string[] {
    return this.messages.filter((m) => m.method === 'event').map((m) => (m.params as { type: string }).type);
  }
}
