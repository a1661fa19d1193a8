/**
 * The wire's message types, shared with the server: type-only imports of the zod-derived types in
 * src/wire/, so the page's bundle carries none of zod. The WebSocket speaks the JSON of wire mode,
 * which for every field the page reads is the same shape as the in-memory one.
 */
export type { ContentPart, ToolCall } from '../../../kosong/message.js';
export type { ToolReturnValue } from '../../../kosong/tool.js';
export type {
  BackgroundTaskDisplayBlock,
  DiffDisplayBlock,
  TodoDisplayBlock,
  WireDisplayBlock,
} from '../../../wire/display.js';
export type {
  ApprovalKind,
  EventPayloads,
  PlanDisplay,
  StatusUpdate,
  UserInput,
  WireEvent,
  WireEventType,
} from '../../../wire/events.js';
export type {
  ApprovalRequestData,
  QuestionAnswers,
  QuestionItem,
  QuestionRequestData,
} from '../../../wire/request-payloads.js';

/** A JSON-RPC `request` the agent sends (approval, question, ...); `id` is the JSON-RPC id. */
export interface IncomingRequest {
  id: string;
  type: string;
  payload: unknown;
}

/** The answer to an ApprovalRequest, with kimi-ts's scope extension for approve-for-session. */
export interface ApprovalAnswer {
  request_id: string;
  response: 'approve' | 'approve_for_session' | 'reject';
  feedback?: string;
  scope?: 'exact' | 'action' | 'prefix';
  prefix?: string;
  /** Also save the session approval as an allow rule of the project or of the user. */
  save_rule?: 'project' | 'user';
}
