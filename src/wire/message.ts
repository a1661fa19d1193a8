import type { MergeableEvent, WireEvent, WireEventType } from './events.js';
import {
  ApprovalRequest,
  HookRequest,
  QuestionRequest,
  ToolCallRequest,
  type WireRequest,
  type WireRequestType,
} from './requests.js';

/** Anything sent over the Wire: an event or a request. */
export type WireMessage = WireEvent | WireRequest;
export type WireMessageType = WireEventType | WireRequestType;

export function isWireRequest(message: WireMessage): message is WireRequest {
  return (
    message instanceof ApprovalRequest ||
    message instanceof ToolCallRequest ||
    message instanceof QuestionRequest ||
    message instanceof HookRequest
  );
}

export function isWireEvent(message: WireMessage): message is WireEvent {
  return !isWireRequest(message);
}

/** Streamed fragments (content parts, tool calls, argument fragments) are what the merge buffer joins. */
export function isMergeable(message: WireMessage): message is MergeableEvent {
  const type = message.type;
  return type === 'ContentPart' || type === 'ToolCall' || type === 'ToolCallPart';
}
