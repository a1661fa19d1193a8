import type { ToolCall } from '../kosong/message.js';
import { type DisplayBlock, type ToolReturnValue, toolError } from '../kosong/tool.js';
import type { ApprovalKind } from './events.js';
import type { JsonValue } from './json.js';
import { PendingReply, type ReplyState } from './pending-reply.js';

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

export type ApprovalSourceKind = 'foreground_turn' | 'background_agent';

export interface ApprovalRequestData {
  id: string;
  tool_call_id: string;
  /** The tool asking. */
  sender: string;
  /** What is being approved; "approve for session" remembers this string. */
  action: string;
  description: string;
  display: DisplayBlock[];
  source_kind?: ApprovalSourceKind | null;
  source_id?: string | null;
  agent_id?: string | null;
  subagent_type?: string | null;
  source_description?: string | null;
}

export interface ApprovalAnswer {
  response: ApprovalKind;
  feedback: string;
  /**
   * kimi-ts extension, for `approve_for_session`: `exact` (default) remembers only the action and
   * command or path the user saw; `action` remembers the whole action (any command, any edit).
   */
  scope?: 'exact' | 'action' | 'prefix' | undefined;
  /** kimi-ts extension: also remember the approval for this project, across sessions. */
  persist?: boolean | undefined;
  /** kimi-ts extension, for scope `prefix`: commands whose every part starts with this. */
  prefix?: string | undefined;
  /** kimi-ts extension: also save the answer as an allow rule (`.kimi-ts/permissions.toml` or the user's). */
  save_rule?: 'project' | 'user' | undefined;
}

/** Asks the user to approve an action. Cancelling it answers `reject` with no feedback. */
export class ApprovalRequest extends WireRequestBase<ApprovalRequestData, ApprovalAnswer> {
  readonly type = 'ApprovalRequest';

  resolve(
    response: ApprovalKind,
    feedback = '',
    extra: Pick<ApprovalAnswer, 'scope' | 'persist' | 'prefix' | 'save_rule'> = {},
  ): boolean {
    return this.reply.resolve({ response, feedback, ...extra });
  }

  protected cancelOutcome(): ApprovalAnswer {
    return { response: 'reject', feedback: '' };
  }
}

export interface ToolCallRequestData {
  /** The tool call's id. */
  id: string;
  name: string;
  /** The arguments as a JSON string. */
  arguments: string | null;
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

export interface QuestionOption {
  label: string;
  description: string;
}

export interface QuestionItem {
  question: string;
  /** A short tag shown with the question. */
  header: string;
  options: QuestionOption[];
  multi_select: boolean;
  /** Markdown shown above the options. */
  body: string;
  /** Label and description of the free-text "Other" choice; empty means the UI's default. */
  other_label: string;
  other_description: string;
}

export interface QuestionRequestData {
  id: string;
  tool_call_id: string;
  questions: QuestionItem[];
}

/** Question text → chosen label(s), comma-joined for multi-select. */
export type QuestionAnswers = Record<string, string>;

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

export interface HookRequestData {
  id: string;
  subscription_id: string;
  event: string;
  target: string;
  /** The same payload a command hook reads on stdin. */
  input_data: Record<string, JsonValue>;
}

export interface HookAnswer {
  action: 'allow' | 'block';
  reason: string;
}

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

/** A wire client's answer to a QuestionRequest (not itself a wire message). */
export interface QuestionResponse {
  request_id: string;
  answers: QuestionAnswers;
}

/** A wire client's answer to a HookRequest (not itself a wire message). */
export interface HookResponse {
  request_id: string;
  action: 'allow' | 'block';
  reason: string;
}
