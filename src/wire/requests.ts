import type { ToolCall } from '../kosong/message.js';
import { type ToolReturnValue, toolError } from '../kosong/tool.js';
import type { ApprovalKind } from './payloads.js';
import { PendingReply, type ReplyState } from './pending-reply.js';
import type {
  ApprovalAnswer,
  ApprovalRequestData,
  HookRequestData,
  HookResponse,
  QuestionAnswers,
  QuestionRequestData,
  ToolCallRequestData,
} from './request-payloads.js';

export type {
  ApprovalAnswer,
  ApprovalAnswerJSON,
  ApprovalRequestData,
  ApprovalSourceKind,
  HookRequestData,
  HookResponse,
  QuestionAnswers,
  QuestionItem,
  QuestionOption,
  QuestionRequestData,
  QuestionResponse,
  ToolCallRequestData,
} from './request-payloads.js';

/**
 * Requests: messages that wait for an answer from a front end. Each carries its reply: the soul side
 * awaits `wait()`, a front end calls `resolve(...)`, and `cancel(reason)` releases every waiter with the
 * request type's cancel outcome (documented on each class). The first of resolve/cancel wins.
 */
abstract class WireRequestBase<P extends { id: string }, A> {
  abstract readonly type: string;
  protected readonly reply = new PendingReply<A>();

  constructor(readonly payload: P) {}

  get id(): string {
    return this.payload.id;
  }

  get state(): ReplyState<A> {
    return this.reply.state;
  }

  get isPending(): boolean {
    return this.reply.state.status === 'pending';
  }

  /** Waits for the answer; rejects with the signal's reason if `signal` aborts first. */
  wait(signal?: AbortSignal): Promise<A> {
    return this.reply.wait(signal);
  }

  /** Releases every waiter with this request type's cancel outcome. Returns false if already settled. */
  cancel(reason = 'The request was cancelled.'): boolean {
    return this.reply.cancel(this.cancelOutcome(reason), reason);
  }

  protected abstract cancelOutcome(reason: string): A;
}

/** Asks the user to approve an action. Cancelling it answers `reject` with no feedback. */
export class ApprovalRequest extends WireRequestBase<ApprovalRequestData, ApprovalAnswer> {
  readonly type = 'ApprovalRequest';

  resolve(
    response: ApprovalKind,
    feedback = '',
    extra: Pick<ApprovalAnswer, 'scope' | 'persist' | 'prefix' | 'save_rule' | 'for_swarm'> = {},
  ): boolean {
    return this.reply.resolve({ response, feedback, ...extra });
  }

  protected cancelOutcome(): ApprovalAnswer {
    return { response: 'reject', feedback: '' };
  }
}

/**
 * Asks a wire client to run one of its own (external) tools. Cancelling it answers with a tool error
 * whose message is the cancel reason.
 */
export class ToolCallRequest extends WireRequestBase<ToolCallRequestData, ToolReturnValue> {
  readonly type = 'ToolCallRequest';

  static fromToolCall(call: ToolCall): ToolCallRequest {
    return new ToolCallRequest({ id: call.id, name: call.function.name, arguments: call.function.arguments });
  }

  resolve(result: ToolReturnValue): boolean {
    return this.reply.resolve(result);
  }

  protected cancelOutcome(reason: string): ToolReturnValue {
    return toolError(reason, 'Cancelled');
  }
}

/** Asks the user structured questions. Cancelling it answers with no answers (`{}`). */
export class QuestionRequest extends WireRequestBase<QuestionRequestData, QuestionAnswers> {
  readonly type = 'QuestionRequest';

  resolve(answers: QuestionAnswers): boolean {
    return this.reply.resolve(answers);
  }

  protected cancelOutcome(): QuestionAnswers {
    return {};
  }
}

export type HookAnswer = Omit<HookResponse, 'request_id'>;

/** Asks a wire client to decide a hook. Cancelling it allows (hooks fail open). */
export class HookRequest extends WireRequestBase<HookRequestData, HookAnswer> {
  readonly type = 'HookRequest';

  resolve(action: HookAnswer['action'], reason = ''): boolean {
    return this.reply.resolve({ action, reason });
  }

  protected cancelOutcome(): HookAnswer {
    return { action: 'allow', reason: '' };
  }
}

export type WireRequest = ApprovalRequest | ToolCallRequest | QuestionRequest | HookRequest;
export type WireRequestType = WireRequest['type'];

export const REQUEST_TYPES: readonly WireRequestType[] = [
  'ApprovalRequest',
  'ToolCallRequest',
  'QuestionRequest',
  'HookRequest',
];
