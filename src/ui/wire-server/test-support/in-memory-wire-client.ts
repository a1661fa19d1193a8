import { PassThrough } from 'node:stream';
import type { AgentSession } from '../../../app/agent-session.js';
import { LineSplitter } from '../line-splitter.js';
import { runWireServer } from '../run-wire-server.js';

export type JsonObject = Record<string, unknown>;

interface Waiter {
  predicate: (message: JsonObject) => boolean;
  resolve: (message: JsonObject) => void;
}

/**
 * The client side of a wire server under test: writes lines to the server's input and parses every
 * line of its output (a line that is not one JSON object fails the test via `badLines`).
 */
export class TestWireClient {
  readonly input = new PassThrough();
  readonly output = new PassThrough();
  readonly messages: JsonObject[] = [];
  readonly badLines: string[] = [];
  /** How many chunks the server wrote (a measure of write batching). */
  outputWrites = 0;
  readonly exitCode: Promise<number>;
  private waiters: Waiter[] = [];
  private nextId = 1;

  /** What the server wrote to its stderr. */
  stderr = '';

  constructor(session: AgentSession, options: { signal?: AbortSignal; maxLineBytes?: number } = {}) {
    const splitter = new LineSplitter({
      onLine: (line) => this.receive(line),
      onOverflow: () => this.badLines.push('<overflow>'),
    });
    this.output.on('data', (chunk: Buffer) => {
      this.outputWrites++;
      splitter.push(chunk);
    });
    this.exitCode = runWireServer({
      session,
      input: this.input,
      output: this.output,
      stderr: (text) => {
        this.stderr += text;
      },
      ...options,
    });
  }

  /** Writes raw text to the server's input. */
  write(text: string): void {
    this.input.write(text);
  }

  send(message: JsonObject): void {
    this.write(`${JSON.stringify(message)}\n`);
  }

  /** Sends a request and resolves with the response to it. */
  request(method: string, params?: unknown): Promise<JsonObject> {
    const id = `c${this.nextId++}`;
    const message: JsonObject = { jsonrpc: '2.0', method, id };
    if (params !== undefined) message.params = params;
    const response = this.waitFor((m) => m.id === id && !('method' in m));
    this.send(message);
    return response;
  }

  /** Answers a request the server sent. */
  respond(id: unknown, result: unknown): void {
    this.send({ jsonrpc: '2.0', id, result });
  }

  respondError(id: unknown, code: number, message: string): void {
    this.send({ jsonrpc: '2.0', id, error: { code, message } });
  }

  /** The first message (already received or still to come) that matches. */
  waitFor(predicate: (message: JsonObject) => boolean): Promise<JsonObject> {
    const seen = this.messages.find(predicate);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve) => this.waiters.push({ predicate, resolve }));
  }

  /** The first `request` message whose envelope has this type. */
  waitForRequest(type: string): Promise<JsonObject> {
    return this.waitFor((m) => m.method === 'request' && envelopeOf(m).type === type);
  }

  waitForEvent(type: string): Promise<JsonObject> {
    return this.waitFor((m) => m.method === 'event' && envelopeOf(m).type === type);
  }

  /** Envelopes of the `event` messages received so far. */
  events(): { type: string; payload: JsonObject }[] {
    return this.messages.filter((m) => m.method === 'event').map(envelopeOf);
  }

  /** Ends the input (EOF) and resolves with the server's exit code. */
  async close(): Promise<number> {
    this.input.end();
    return this.exitCode;
  }

  private receive(line: string): void {
    let message: JsonObject;
    try {
      const value: unknown = JSON.parse(line);
      if (typeof value !== 'object' || value === null || Array.isArray(value))
        throw new Error('not an object');
      message = value as JsonObject;
    } catch {
      this.badLines.push(line);
      return;
    }
    this.messages.push(message);
    const waiting = this.waiters;
    this.waiters = [];
    for (const waiter of waiting) {
      if (waiter.predicate(message)) waiter.resolve(message);
      else this.waiters.push(waiter);
    }
  }
}

export function envelopeOf(message: JsonObject): { type: string; payload: JsonObject } {
  return message.params as { type: string; payload: JsonObject };
}
