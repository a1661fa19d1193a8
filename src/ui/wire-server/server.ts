import { randomUUID } from 'node:crypto';
import type { Readable, Writable } from 'node:stream';
import type { z } from 'zod';
import type { AgentSession } from '../../app/agent-session.js';
import type { AskClient } from '../../hooks/index.js';
import { RunCancelled } from '../../soul/errors.js';
import type { UILoop } from '../../soul/run-soul.js';
import { wireEvent } from '../../wire/events.js';
import { describeIssues, type JsonValue } from '../../wire/json.js';
import { isWireRequest, type WireMessage } from '../../wire/message.js';
import { wireMessageToJSON } from '../../wire/message-json.js';
import { type HookAnswer, HookRequest, type WireRequest } from '../../wire/requests.js';
import {
  applyToolVisibility,
  type ClientCapabilities,
  initializeSession,
  LEGACY_CLIENT,
} from './initialize.js';
import {
  ErrorCodes,
  errorLine,
  eventLine,
  type InboundNotification,
  type InboundRequest,
  MethodError,
  parseInboundLine,
  requestLine,
  successLine,
} from './jsonrpc.js';
import { LineSplitter, MAX_LINE_BYTES } from './line-splitter.js';
import { LineWriter } from './line-writer.js';
import { PendingRequests } from './pending-requests.js';
import { replayWireFile } from './replay.js';
import {
  initializeParamsSchema,
  noParamsSchema,
  promptParamsSchema,
  setPlanModeParamsSchema,
  steerParamsSchema,
} from './schemas.js';
import { describeInternalError, type PromptResult, promptFailure } from './turn-result.js';

export interface WireServerOptions {
  session: AgentSession;
  /** JSON-RPC requests and responses from the client, one JSON object per line. */
  input: Readable;
  /** Where responses, events and requests go, one JSON object per line. */
  output: Writable;
  /** Aborting it shuts the server down as if the input had ended. */
  signal?: AbortSignal | undefined;
  /** The longest line accepted (default 100 MiB). */
  maxLineBytes?: number | undefined;
  /** Where the server explains what it did with input it could not use (default: process.stderr). */
  stderr?: ((text: string) => void) | undefined;
}

/** What runs now: a turn (`prompt`) or a `replay`; `cancel` aborts either. */
interface Activity {
  kind: 'prompt' | 'replay';
  controller: AbortController;
}

/**
 * Serves one session in wire mode (JSON-RPC 2.0 over a pair of byte streams, normally stdio) until
 * the input ends or `signal` aborts. Then the running turn is cancelled, requests still waiting for
 * the client are closed, every answer in flight is written, and the promise resolves with the exit
 * code: 0, or 1 when the input failed. The caller owns the session and the streams (closes neither).
 */
export function runWireServer(options: WireServerOptions): Promise<number> {
  return new WireServer(options).serve();
}

class WireServer {
  private readonly session: AgentSession;
  private readonly writer: LineWriter;
  private readonly pending: PendingRequests;
  private readonly stderr: (text: string) => void;
  private readonly handlers = new Set<Promise<void>>();
  private capabilities: ClientCapabilities = LEGACY_CLIENT;
  private activity: Activity | null = null;
  private closed = false;
  private stopReading: (exitCode: number) => void = () => {};
  private stopOutOfTurn: (() => void) | null = null;

  constructor(private readonly options: WireServerOptions) {
    this.session = options.session;
    this.stderr = options.stderr ?? ((text) => process.stderr.write(text));
    this.pending = new PendingRequests((why) => this.stderr(`wire: ${why}\n`));
    // A client that stopped reading is gone: stop as if it had closed its input.
    this.writer = new LineWriter(options.output, () => this.stopReading(0));
  }

  async serve(): Promise<number> {
    applyToolVisibility(this.session, LEGACY_CLIENT);
    const exitCode = await this.readUntilDone();
    await this.shutdown();
    return exitCode;
  }

  private readUntilDone(): Promise<number> {
    const { input, signal } = this.options;
    const limit = this.options.maxLineBytes ?? MAX_LINE_BYTES;
    const splitter = new LineSplitter(
      {
        onLine: (line) => this.handleLine(line),
        onOverflow: () =>
          this.writer.write(
            errorLine(null, {
              code: ErrorCodes.PARSE_ERROR,
              message: `Parse error: a line longer than ${limit} bytes was skipped.`,
            }),
          ),
      },
      limit,
    );
    return new Promise<number>((resolve) => {
      const onData = (chunk: Buffer | string): void => splitter.push(chunk);
      const onEnd = (): void => {
        splitter.end();
        finish(0);
      };
      const onClose = (): void => finish(0);
      const onError = (): void => finish(1);
      const onAbort = (): void => finish(0);
      const finish = (code: number): void => {
        input.off('data', onData);
        input.off('end', onEnd);
        input.off('close', onClose);
        input.off('error', onError);
        signal?.removeEventListener('abort', onAbort);
        this.stopReading = () => {};
        input.pause();
        resolve(code);
      };
      this.stopReading = finish;
      if (signal?.aborted || input.readableEnded || input.destroyed) return finish(0);
      signal?.addEventListener('abort', onAbort, { once: true });
      input.on('data', onData);
      input.once('end', onEnd);
      input.once('close', onClose);
      input.once('error', onError);
    });
  }

  private async shutdown(): Promise<void> {
    this.closed = true;
    this.stopOutOfTurn?.();
    // Settle what waits for the client first, so a tool sees "wire closed" rather than a cancel.
    this.pending.close('wire_closed');
    this.activity?.controller.abort(new RunCancelled('The wire client disconnected.'));
    while (this.handlers.size > 0) await Promise.allSettled([...this.handlers]);
    this.pending.close('wire_closed');
    await this.writer.flush();
    this.writer.detach();
  }

  private handleLine(line: string): void {
    if (this.closed || line.trim() === '') return;
    try {
      const message = parseInboundLine(line);
      if (message.kind === 'invalid') this.writer.write(errorLine(message.id, message.error));
      else if (message.kind === 'response') this.pending.answer(message);
      else if (message.kind === 'notification') this.track(this.notify(message));
      else this.track(this.dispatch(message));
    } catch (error) {
      this.writer.write(
        errorLine(null, { code: ErrorCodes.INTERNAL_ERROR, message: describeInternalError(error) }),
      );
    }
  }

  private track(handler: Promise<void>): void {
    this.handlers.add(handler);
    void handler.finally(() => this.handlers.delete(handler));
  }

  /** Runs a method and writes its answer. Never rejects. */
  private async dispatch(request: InboundRequest): Promise<void> {
    try {
      const result = await this.runMethod(request);
      this.writer.write(successLine(request.id, result));
      // After its answer, an initialized client also hears what happens between turns (a background
      // agent's approval), starting with any such request still waiting.
      if (request.method === 'initialize' && !this.closed)
        this.stopOutOfTurn ??= this.session.onOutOfTurn((message) => this.forward([message]));
    } catch (error) {
      const answer =
        error instanceof MethodError
          ? { code: error.code, message: error.message }
          : { code: ErrorCodes.INTERNAL_ERROR, message: describeInternalError(error) };
      this.writer.write(errorLine(request.id, answer));
    }
  }

  /** Runs a notification's method; nothing is written back, a failure is told on stderr. */
  private async notify({ method, params }: InboundNotification): Promise<void> {
    try {
      await this.runMethod({ kind: 'request', id: '', method, params });
    } catch (error) {
      const why = error instanceof Error ? error.message : String(error);
      this.stderr(`wire: notification \`${method}\` (no id, so no reply) failed: ${why}\n`);
    }
  }

  // Each handler claims the server's state (e.g. "a turn is running") before its first await, so two
  // requests on consecutive lines cannot both start a turn.
  private runMethod({ method, params }: InboundRequest): Promise<unknown> | unknown {
    switch (method) {
      case 'initialize':
        return this.initialize(parseParams(method, initializeParamsSchema, params));
      case 'prompt':
        return this.prompt(parseParams(method, promptParamsSchema, params).user_input);
      case 'steer':
        return this.steer(parseParams(method, steerParamsSchema, params).user_input);
      case 'cancel':
        parseParams(method, noParamsSchema, params);
        return this.cancel();
      case 'set_plan_mode':
        return this.setPlanMode(parseParams(method, setPlanModeParamsSchema, params).enabled);
      case 'replay':
        parseParams(method, noParamsSchema, params);
        return this.replay();
      default:
        throw new MethodError(ErrorCodes.METHOD_NOT_FOUND, `Method not found: ${method}`);
    }
  }

  private initialize(params: z.output<typeof initializeParamsSchema>): Record<string, unknown> {
    this.assertIdle();
    const { result, capabilities } = initializeSession(this.session, params, this.askClient);
    this.capabilities = capabilities;
    return result;
  }

  private async prompt(input: z.output<typeof promptParamsSchema>['user_input']): Promise<PromptResult> {
    this.assertIdle();
    if (!this.session.hasLLM) throw new MethodError(ErrorCodes.LLM_NOT_SET, this.session.llmNotSetMessage);
    const controller = new AbortController();
    this.activity = { kind: 'prompt', controller };
    try {
      await this.session.runTurn(input, this.forwardWire, controller.signal);
      return { status: 'finished' };
    } catch (error) {
      return promptFailure(error, controller.signal.aborted, this.session.llmNotSetMessage);
    } finally {
      this.activity = null;
      this.pending.close(this.closed ? 'wire_closed' : 'turn_ended');
    }
  }

  private steer(input: z.output<typeof steerParamsSchema>['user_input']): { status: 'steered' } {
    if (this.activity?.kind !== 'prompt' || !this.session.steer(input))
      throw new MethodError(ErrorCodes.INVALID_STATE, 'No agent turn is in progress');
    return { status: 'steered' };
  }

  private cancel(): Record<string, never> {
    if (this.activity === null)
      throw new MethodError(ErrorCodes.INVALID_STATE, 'No agent turn is in progress');
    this.activity.controller.abort(new RunCancelled('Cancelled by the wire client.'));
    return {};
  }

  private async setPlanMode(enabled: boolean): Promise<{ status: 'ok'; plan_mode: boolean }> {
    await this.session.setPlanMode(enabled);
    const planMode = this.session.planMode;
    this.writer.write(eventLine(wireMessageToJSON(wireEvent('StatusUpdate', { plan_mode: planMode }))));
    return { status: 'ok', plan_mode: planMode };
  }

  private async replay(): Promise<unknown> {
    this.assertIdle();
    const controller = new AbortController();
    this.activity = { kind: 'replay', controller };
    try {
      return await replayWireFile(this.session.wireFile, this.writer, controller.signal);
    } finally {
      this.activity = null;
    }
  }

  private assertIdle(): void {
    if (this.activity !== null || this.session.isBusy)
      throw new MethodError(ErrorCodes.INVALID_STATE, 'An agent turn is already in progress');
  }

  /**
   * The UI loop of every turn: forwards each raw wire message as it comes. Requests are registered
   * and sent, never awaited here (the tool that sent one awaits it), so the stream keeps flowing
   * while the client thinks, and the client's answer arrives through the read loop.
   */
  private readonly forwardWire: UILoop = async (wire, signal) => {
    const subscription = wire.subscribe({ merge: false });
    try {
      for await (const batch of subscription.batches(signal)) this.forward(batch);
    } catch (error) {
      if (!signal.aborted) throw error;
    }
  };

  private forward(batch: readonly WireMessage[]): void {
    let text = '';
    for (const message of batch) {
      if (isWireRequest(message)) text += this.outboundRequest(message);
      // Live tool output is a kimi-ts extension Kimi CLI's wire clients do not know: kept to its own screens.
      else if (message.type !== 'ToolOutput') text += eventLine(wireMessageToJSON(message));
    }
    this.writer.write(text);
  }

  /** The line that sends `request` to the client, or '' when it must not be sent. */
  private outboundRequest(request: WireRequest): string {
    if (!request.isPending) return ''; // settled before it got here: nobody waits for an answer
    if (request.type === 'QuestionRequest' && !this.capabilities.supportsQuestion) {
      request.cancel('The wire client does not support questions.');
      return '';
    }
    this.pending.add(request);
    if (this.closed) {
      this.pending.close('wire_closed');
      return '';
    }
    return requestLine(request.id, wireMessageToJSON(request));
  }

  /** How subscribed hooks ask the client: a `HookRequest` answered by a `HookResponse`. */
  private readonly askClient: AskClient = async (question, signal): Promise<HookAnswer> => {
    if (this.closed) throw new Error('The wire client has disconnected.');
    const request = new HookRequest({
      id: randomUUID(),
      subscription_id: question.subscription_id,
      event: question.event,
      target: question.target,
      // The hook payload is built from JSON-safe values (it is also what command hooks read).
      input_data: question.input_data as Record<string, JsonValue>,
    });
    this.pending.add(request);
    this.writer.write(requestLine(request.id, wireMessageToJSON(request)));
    try {
      return await request.wait(signal);
    } finally {
      if (request.isPending) {
        this.pending.remove(request);
        request.cancel('The hook no longer waits for an answer.');
      }
    }
  };
}

function parseParams<T extends z.ZodType>(method: string, schema: T, params: unknown): z.output<T> {
  const parsed = schema.safeParse(params);
  if (!parsed.success)
    throw new MethodError(
      ErrorCodes.INVALID_PARAMS,
      `Invalid params for \`${method}\`: ${describeIssues(parsed.error)}`,
    );
  return parsed.data;
}
