import type { ApprovalAnswerJSON } from '../../../wire/request-payloads.js';

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

/** The page's answer to an ApprovalRequest: the wire's (request-payloads.ts), always naming the request. */
export type ApprovalAnswer = ApprovalAnswerJSON & { request_id: string };
