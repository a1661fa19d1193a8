import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import type { AgentSession } from '../../../app/agent-session.js';
import { TurnInProgressError } from '../../../app/agent-session-impl.js';
import type { AskClient } from '../../../hooks/index.js';
import { RunCancelled } from '../../../soul/errors.js';
import type { UILoop } from '../../../soul/run-soul.js';
import { sanitizeForTerminal, type TerminalSafe } from '../../../util/sanitize-terminal.js';
import { wireEvent } from '../../../wire/events.js';
import { describeIssues, type JsonValue } from '../../../wire/json.js';
import { isWireRequest, type WireMessage } from '../../../wire/message.js';
import { wireMessageToJSON } from '../../../wire/message-json.js';
import { type HookAnswer, HookRequest, type WireRequest } from '../../../wire/requests.js';
import {
  applyToolVisibility,
  type ClientCapabilities,
  initializeSession,
  LEGACY_CLIENT,
} from './initialize.js';
import {
  ErrorCodes,
  errorFrame,
  eventFrame,
  type InboundMessage,
  type InboundNotification,
  type InboundRequest,
  llmNotSetError,
  MethodError,
  requestFrame,
  successFrame,
} from './jsonrpc.js';
import { PendingRequests } from './pending-requests.js';
import { replayWireFile } from './replay.js';
import {
  initializeParamsSchema,
  noParamsSchema,
  promptParamsSchema,
  setPlanModeParamsSchema,
  steerParamsSchema,
} from './schemas.js';
import type { OutboundFrame, WireTransport } from './transport.js';
import { describeInternalError, type PromptResult, promptFailure } from './turn-result.js';
import { WorkspaceTrustQuestion, workspaceTrustState } from './workspace-trust-question.js';

export interface ServeWireOptions {
  session: AgentSession;
  /** How messages reach the client and come back (stdio lines, WebSocket frames). */
  transport: WireTransport;
  /** Where the server explains what it did with input it could not use (default: process.stderr). */
  /** Notices for a person (usually a terminal): only safe text. */
  stderr?: ((text: TerminalSafe) => void) | undefined;
}

/** What runs now: a turn (`prompt`) or a `replay`; `cancel` aborts either. */
interface Activity {
  kind: 'prompt' | 'replay';
  controller: AbortController;
}

/**
 * The wire protocol core that every transport serves (stdio lines in `ui/wire-server/`, WebSocket
 * frames in `ui/web/server/`): serves one session to one transport until the transport's client is
 * gone. Then the running turn is cancelled, requests still waiting for the client are closed, every
 * answer in flight is sent, and the promise resolves with the exit code: 0, or 1 when the input
 * failed. The caller owns the session (closes nothing of it).
 */
export function serveWire(options: ServeWireOptions): Promise<number> {
  return new WireServer(options).serve();
}

class WireServer {
  private readonly session: AgentSession;
  private readonly transport: WireTransport;
  private readonly pending: PendingRequests;
  private readonly stderr: (text: TerminalSafe) => void;
  private readonly handlers = new Set<Promise<void>>();
  private capabilities: ClientCapabilities = LEGACY_CLIENT;
  private activity: Activity | null = null;
  private closed = false;
  private stopOutOfTurn: (() => void) | null = null;
  private stopScheduled: (() => void) | null = null;
  /** The workspace trust question in flight (asked once, after `initialize`), or null. */
  private trustQuestion: WorkspaceTrustQuestion | null = null;
  /** Settles once the trust question (if any) is answered and its answer applied. */
  private trustAnswered: Promise<void> = Promise.resolve();

  constructor(options: ServeWireOptions) {
    this.session = options.session;
    this.stderr = options.stderr ?? ((text) => process.stderr.write(text));
    this.pending = new PendingRequests((why) => this.notice(why));
    this.transport = options.transport;
  }

  /** A notice on stderr; what it carries (a method name, an error's message) is made safe. */
  private notice(text: string): void {
    this.stderr(sanitizeForTerminal(`wire: ${text}\n`));
  }

  async serve(): Promise<number> {
    applyToolVisibility(this.session, LEGACY_CLIENT);
    const exitCode = await this.readUntilDone();
    await this.shutdown();
    return exitCode;
  }

  private readUntilDone(): Promise<number> {
    return this.transport.receive((message) => this.handleMessage(message));
  }

  private async shutdown(): Promise<void> {
    this.closed = true;
    this.stopOutOfTurn?.();
    this.stopScheduled?.();
    // Settle what waits for the client first, so a tool sees "wire closed" rather than a cancel.
    this.pending.close('wire_closed');
    this.trustQuestion?.drop();
    this.activity?.controller.abort(new RunCancelled('The wire client disconnected.'));
    while (this.handlers.size > 0) await Promise.allSettled([...this.handlers]);
    this.pending.close('wire_closed');
    await this.transport.flush();
    this.transport.close();
  }

  private handleMessage(message: InboundMessage): void {
    if (this.closed) return;
    try {
      if (message.kind === 'invalid') this.send(errorFrame(message.id, message.error));
      else if (message.kind === 'response') {
        const question = this.trustQuestion;
        if (question && message.id === question.id) {
          this.trustQuestion = null;
          this.track(question.answer(message));
        } else this.pending.answer(message);
      } else if (message.kind === 'notification') this.track(this.notify(message));
      else this.track(this.dispatch(message));
    } catch (error) {
      this.send(errorFrame(null, { code: ErrorCodes.INTERNAL_ERROR, message: describeInternalError(error) }));
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
      this.send(successFrame(request.id, result));
      // After its answer, an initialized client also hears what happens between turns (a background
      // agent's approval), starting with any such request still waiting.
      if (request.method === 'initialize' && !this.closed) {
        this.stopOutOfTurn ??= this.session.onOutOfTurn((message) => this.forward([message]));
        // A scheduled prompt (CronCreate, /loop) that comes due while idle runs as a turn here.
        this.stopScheduled ??= this.session.onScheduledPrompt(({ jobId }) =>
          this.track(this.runScheduled(jobId)),
        );
        this.askWorkspaceTrust();
      }
    } catch (error) {
      const answer =
        error instanceof MethodError
          ? {
              code: error.code,
              message: error.message,
              ...(error.data === undefined ? {} : { data: error.data }),
            }
          : { code: ErrorCodes.INTERNAL_ERROR, message: describeInternalError(error) };
      this.send(errorFrame(request.id, answer));
    }
  }

  /** Runs a notification's method; nothing is written back, a failure is told on stderr. */
  private async notify({ method, params }: InboundNotification): Promise<void> {
    try {
      await this.runMethod({ kind: 'request', id: '', method, params });
    } catch (error) {
      const why = error instanceof Error ? error.message : String(error);
      this.notice(`notification \`${method}\` (no id, so no reply) failed: ${why}`);
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
        throw new MethodError(ErrorCodes.METHOD_NOT_FOUND, `Unexpected method received: ${method}`);
    }
  }

  private async initialize(
    params: z.output<typeof initializeParamsSchema>,
  ): Promise<Record<string, unknown>> {
    this.assertIdle();
    const { result, capabilities } = initializeSession(this.session, params, this.askClient);
    this.capabilities = capabilities;
    const trust = this.session.workspaceTrust;
    // A program that trusts the folder says so; for this session only (the record is the person's).
    if (params.trust_workspace === true) await trust.trust({ remember: false, source: 'client' });
    // Only clients that speak of trust hear of it: the answer of the others is unchanged.
    if (capabilities.supportsWorkspaceTrust || params.trust_workspace != null)
      result.workspace = workspaceTrustState(trust);
    return result;
  }

  /** After `initialize`: asks a client that can answer whether to trust the folder, when it matters. */
  private askWorkspaceTrust(): void {
    if (!this.capabilities.supportsWorkspaceTrust || this.trustQuestion) return;
    if (!this.session.workspaceTrust.worthAsking) return;
    const question = new WorkspaceTrustQuestion(this.session.workspaceTrust, (why) => this.notice(why));
    this.trustQuestion = question;
    this.trustAnswered = question.answered;
    this.send(question.frame());
  }

  private async prompt(input: z.output<typeof promptParamsSchema>['user_input']): Promise<PromptResult> {
    this.assertIdle();
    if (!this.session.hasLLM) throw llmNotSetError(this.session.llmNotSetMessage);
    const controller = new AbortController();
    this.activity = { kind: 'prompt', controller };
    try {
      // A turn starts once the client has said whether it trusts the folder (its rules depend on it).
      await this.trustAnswered;
      await this.session.runTurn(input, this.forwardWire, controller.signal);
      return { status: 'finished' };
    } catch (error) {
      return promptFailure(error, controller.signal.aborted, this.session.llmNotSetMessage);
    } finally {
      this.activity = null;
      this.pending.close(this.closed ? 'wire_closed' : 'turn_ended');
    }
  }

  /**
   * Runs a due scheduled prompt as a turn, as `prompt` runs one (`cancel` and `steer` reach it), with
   * no request to answer: the client sees ScheduleFired, then the turn's events. Never rejects.
   */
  private async runScheduled(jobId: string): Promise<void> {
    if (this.closed || this.activity !== null || this.session.isBusy || !this.session.hasLLM) return;
    const controller = new AbortController();
    this.activity = { kind: 'prompt', controller };
    try {
      await this.trustAnswered;
      await this.session.runScheduledTurn(jobId, this.forwardWire, controller.signal);
    } catch (error) {
      // Busy: the fire stays due and is offered again after the turn. Else the turn's own events
      // (TurnEnd) have told the client it ended; the reason goes to stderr.
      if (!(error instanceof TurnInProgressError) && !controller.signal.aborted)
        this.notice(`the turn of scheduled prompt ${jobId} failed: ${describeInternalError(error)}`);
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
    this.send(eventFrame(wireMessageToJSON(wireEvent('StatusUpdate', { plan_mode: planMode }))));
    return { status: 'ok', plan_mode: planMode };
  }

  private async replay(): Promise<unknown> {
    this.assertIdle();
    const controller = new AbortController();
    this.activity = { kind: 'replay', controller };
    try {
      return await replayWireFile(this.session.wireFile, this.transport, controller.signal);
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
    const frames: OutboundFrame[] = [];
    for (const message of batch) {
      // Live tool output is a kimi-ts extension Kimi CLI's wire clients do not know: only for clients
      // that ask for it in `initialize` (the web page does).
      if (message.type === 'ToolOutput' && !this.capabilities.supportsToolOutput) continue;
      if (!isWireRequest(message)) frames.push(eventFrame(wireMessageToJSON(message)));
      else {
        const frame = this.outboundRequest(message);
        if (frame) frames.push(frame);
      }
    }
    if (frames.length > 0) this.transport.send(frames);
  }

  private send(frame: OutboundFrame): void {
    this.transport.send([frame]);
  }

  /** The message that sends `request` to the client, or null when it must not be sent. */
  private outboundRequest(request: WireRequest): OutboundFrame | null {
    if (!request.isPending) return null; // settled before it got here: nobody waits for an answer
    if (request.type === 'QuestionRequest' && !this.capabilities.supportsQuestion) {
      request.cancel('The wire client does not support questions.');
      return null;
    }
    this.pending.add(request);
    if (this.closed) {
      this.pending.close('wire_closed');
      return null;
    }
    return requestFrame(request.id, wireMessageToJSON(request));
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
    this.send(requestFrame(request.id, wireMessageToJSON(request)));
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
