import type { Redis } from 'ioredis';
import { z } from 'zod';
import { answerParkedQuestion, answerParkedTurn } from '../../../../fleet/answer-parked.js';
import { rangeSessionEvents, readSessionEvents, type SessionEvent } from '../../../../fleet/event-stream.js';
import { parkedApprovals } from '../../../../fleet/parked-approvals.js';
import { parkedQuestions } from '../../../../fleet/parked-questions.js';
import { InvalidQuestionAnswer } from '../../../../fleet/question-answers.js';
import { requestCancel } from '../../../../fleet/turn-cancels.js';
import { INTERRUPTED_BY_USER } from '../../../../fleet/turn-end.js';
import { assertNever } from '../../../../util/assert-never.js';
import { wireMessageToJSON } from '../../../../wire/index.js';
import {
  ErrorCodes,
  errorFrame,
  eventFrame,
  frameText,
  type InboundMessage,
  parseInboundLine,
  requestFrame,
} from '../../../common/wire-protocol/index.js';
import type { FleetSource } from './fleet-source.js';
import { submitPageTurn } from './fleet-turns.js';
import type { RelayClient } from './fleet-web.js';

/** How a socket is closed when the fleet's Redis went away under it (the page reconnects and asks why). */
export const CLOSE_REDIS_GONE = { code: 1011, reason: "The fleet's Redis cannot be reached." } as const;

const promptParams = z.looseObject({ user_input: z.string().min(1).max(1_000_000) });
const approvalAnswer = z.looseObject({ response: z.unknown() });
const questionAnswer = z.looseObject({ answers: z.record(z.string(), z.string()) });
/** Answers that approve; any other counts as a rejection (as wire mode does). The fleet has no session scope. */
const APPROVING = new Set<unknown>(['approve', 'approve_for_session']);
/** Stream entries sent per read while replaying (a long stream is paged, never read whole). */
const REPLAY_PAGE = 500;

/**
 * A fleet session served to one page over its WebSocket, speaking the same JSON-RPC as a local
 * session: `replay` sends the session's Redis Stream from its start (the page asks after every
 * reconnect and forgets what it showed) and then follows it live from the last stream id sent
 * (XREAD BLOCK on a connection of its own), so a turn running on any worker shows here. A parked
 * approval becomes the page's approval request, a parked question its question request; their
 * answers go through `fleet approve`'s and `fleet answer`'s paths.
 * `prompt` submits the next turn's job; `cancel` is `fleet cancel`.
 */
export class FleetSessionRelay {
  private live: AbortController | null = null;
  private blocking: Redis | null = null;
  /** The latest turn seen in the stream. */
  private latestTurn = 0;
  /** The last ApprovalRequest streamed: what a parked approval shows (its panel's content). */
  private lastApproval: { id: string; envelope: unknown } | null = null;
  /** The last QuestionRequest streamed: what a parked question shows. */
  private lastQuestion: { id: string; envelope: unknown } | null = null;
  /** The page's `prompt` calls waiting for their turn's end, by turn. */
  private readonly prompts = new Map<number, string>();
  private closed = false;
  /** Counts `replay` calls: only the latest one goes on live. */
  private replays = 0;

  constructor(
    private readonly source: FleetSource,
    private readonly sessionId: string,
    private readonly defaultWorkDir: string,
    private readonly client: RelayClient,
  ) {}

  receive(text: string): void {
    if (this.closed) return;
    const message = parseInboundLine(text);
    void this.handle(message).catch(() => this.redisGone());
  }

  /** The socket closed: the live read stops, its connection is dropped. */
  detach(): void {
    this.closed = true;
    this.stopLive();
  }

  private async handle(message: InboundMessage): Promise<void> {
    switch (message.kind) {
      case 'invalid':
        return this.reply(errorFrame(message.id, message.error));
      case 'notification':
        return;
      case 'response': {
        if (!message.ok) return;
        if (message.id === this.lastQuestion?.id) return this.answerQuestion(message.result);
        // An answer to a parked approval shown as a request (its id is the request's own).
        if (message.id !== this.lastApproval?.id) return;
        const answer = approvalAnswer.safeParse(message.result);
        if (!answer.success) return;
        await answerParkedTurn(
          this.source.redis,
          this.sessionId,
          APPROVING.has(answer.data.response) ? 'approve' : 'reject',
        );
        return;
      }
      case 'request':
        return this.request(message.id, message.method, message.params);
    }
  }

  /**
   * The page's answer to a parked question, checked against its options as `fleet answer` checks
   * one: an answer that is not one of them (the page's free "Other") answers nothing, and the
   * question is offered again.
   */
  private async answerQuestion(result: unknown): Promise<void> {
    const parsed = questionAnswer.safeParse(result);
    try {
      if (parsed.success)
        await answerParkedQuestion(this.source.redis, this.sessionId, {
          kind: 'answers',
          answers: parsed.data.answers,
        });
      else await this.offerParked();
    } catch (error) {
      if (!(error instanceof InvalidQuestionAnswer)) throw error;
      await this.offerParked();
    }
  }

  private async request(id: string, method: string, params: unknown): Promise<void> {
    switch (method) {
      case 'initialize':
        return this.reply({
          kind: 'response',
          id,
          body: { result: { protocol_version: '1.10', server: { name: 'kimi-ts web --queue' } } },
        });
      case 'replay':
        return this.replay(id);
      case 'prompt': {
        const parsed = promptParams.safeParse(params);
        if (!parsed.success)
          return this.reply(
            errorFrame(id, { code: ErrorCodes.INVALID_PARAMS, message: 'user_input is text.' }),
          );
        const submitted = await submitPageTurn(this.source.redis, {
          sessionId: this.sessionId,
          afterTurn: this.latestTurn,
          prompt: parsed.data.user_input,
          defaultWorkDir: this.defaultWorkDir,
        });
        if ('refusal' in submitted)
          return this.reply(errorFrame(id, { code: ErrorCodes.INVALID_STATE, message: submitted.refusal }));
        // Answered when the turn's end comes through the stream.
        this.prompts.set(submitted.turn, id);
        return;
      }
      case 'cancel':
        await requestCancel(this.source.redis, this.sessionId);
        return this.reply({ kind: 'response', id, body: { result: {} } });
      default:
        return this.reply(
          errorFrame(id, {
            code: ErrorCodes.METHOD_NOT_FOUND,
            message: `${method.slice(0, 40)} is not available for a session of the fleet.`,
          }),
        );
    }
  }

  /** The stream from its start, then live from the last id sent: nothing missing, nothing twice. */
  private async replay(id: string): Promise<void> {
    this.stopLive();
    const replay = ++this.replays;
    let last = '0';
    let sent = 0;
    for (;;) {
      const page = await rangeSessionEvents(this.source.redis, this.sessionId, last, REPLAY_PAGE);
      // The socket closed, or a newer replay began: this one stops here.
      if (this.closed || replay !== this.replays) return;
      for (const event of page) if (this.forward(event)) sent++;
      last = page.at(-1)?.id ?? last;
      if (page.length < REPLAY_PAGE) break;
    }
    this.reply({ kind: 'response', id, body: { result: { status: 'finished', events: sent, requests: 0 } } });
    await this.offerParked();
    if (this.closed || replay !== this.replays) return;
    this.followFrom(last);
  }

  private followFrom(from: string): void {
    const live = new AbortController();
    const blocking = this.source.redis.duplicate({ enableOfflineQueue: true, maxRetriesPerRequest: 1 });
    blocking.on('error', () => {});
    this.live = live;
    this.blocking = blocking;
    void (async () => {
      for await (const event of readSessionEvents(blocking, this.sessionId, from, live.signal)) {
        this.forward(event);
        if (event.kind === 'parked') await this.offerParked();
      }
    })().catch(() => {
      if (!live.signal.aborted) this.redisGone();
    });
  }

  private stopLive(): void {
    this.live?.abort();
    this.live = null;
    this.blocking?.disconnect();
    this.blocking = null;
  }

  /** One stream entry to the page; true when something was sent. */
  private forward(event: SessionEvent): boolean {
    switch (event.kind) {
      case 'wire': {
        this.latestTurn = Math.max(this.latestTurn, event.turn);
        const envelope = wireMessageToJSON(event.message) as { type: string; payload: { id?: unknown } };
        if (envelope.type === 'ApprovalRequest' && typeof envelope.payload.id === 'string')
          this.lastApproval = { id: envelope.payload.id, envelope };
        if (envelope.type === 'QuestionRequest' && typeof envelope.payload.id === 'string')
          this.lastQuestion = { id: envelope.payload.id, envelope };
        // Requests in the stream are history (the worker asked and was answered, or parked).
        this.client.send(frameText(eventFrame(envelope)));
        return true;
      }
      case 'attempt':
      case 'parked':
        this.latestTurn = Math.max(this.latestTurn, event.turn);
        return false;
      case 'end': {
        this.latestTurn = Math.max(this.latestTurn, event.turn);
        const id = this.prompts.get(event.turn);
        if (id === undefined) return false;
        this.prompts.delete(event.turn);
        // As wire mode answers a prompt: finished, cancelled, or the turn's error.
        const status =
          event.code === 0 ? 'finished' : event.error === INTERRUPTED_BY_USER ? 'cancelled' : null;
        this.reply(
          status !== null
            ? { kind: 'response', id, body: { result: { status } } }
            : errorFrame(id, {
                code: ErrorCodes.INTERNAL_ERROR,
                message: event.error ?? `The turn ended with code ${event.code}.`,
              }),
        );
        return false;
      }
      case 'unreadable':
        return false;
      default:
        return assertNever(event);
    }
  }

  /** A parked approval or question still waiting: shown as the page's request of its kind. */
  private async offerParked(): Promise<void> {
    const approval = this.lastApproval;
    if (approval !== null && (await parkedApprovals.pending(this.source.redis, this.sessionId)).length > 0)
      this.reply(requestFrame(approval.id, approval.envelope));
    const question = this.lastQuestion;
    if (question !== null && (await parkedQuestions.pending(this.source.redis, this.sessionId)).length > 0)
      this.reply(requestFrame(question.id, question.envelope));
  }

  private reply(frame: Parameters<typeof frameText>[0]): void {
    if (!this.closed) this.client.send(frameText(frame));
  }

  private redisGone(): void {
    if (this.closed) return;
    this.closed = true;
    this.stopLive();
    this.client.close(CLOSE_REDIS_GONE.code, CLOSE_REDIS_GONE.reason);
  }
}
