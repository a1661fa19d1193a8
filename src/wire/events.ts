import type { ContentPart, StreamedPart, TokenUsage, ToolCall, ToolCallPart } from '../kosong/message.js';
import type { ToolResult } from '../kosong/tool.js';
import type { JsonValue } from './json.js';

/**
 * The events of the Wire: one-way messages from the soul to every front end. In memory each event is
 * `{type, payload}`, the same envelope Kimi CLI writes to wire.jsonl and sends to wire-mode clients, so
 * `type` is the envelope name and the payload fields carry Kimi CLI's snake_case names. Content parts,
 * tool calls and tool results are kosong's own objects.
 */

export type UserInput = string | ContentPart[];

export interface TurnBegin {
  user_input: UserInput;
}

/** Input the user added to the running turn; sent after it was appended to the context. */
export interface SteerInput {
  user_input: UserInput;
}

export interface StepBegin {
  n: number;
}

/** A failed step attempt is about to be retried. */
export interface StepRetry {
  n: number;
  /** 1-based. */
  next_attempt: number;
  max_attempts: number;
  wait_s: number;
  /** The class name of the error that caused the retry. */
  error_type: string;
  status_code?: number | null;
}

export interface HookTriggered {
  event: string;
  /** The tool name, agent name, ... the hooks matched against. */
  target: string;
  hook_count: number;
}

export interface HookResolved {
  event: string;
  target: string;
  action: 'allow' | 'block';
  reason: string;
  duration_ms: number;
}

export type MCPServerStatus = 'pending' | 'connecting' | 'connected' | 'failed' | 'unauthorized';

export interface MCPStatusSnapshot {
  loading: boolean;
  connected: number;
  total: number;
  tools: number;
  servers: { name: string; status: MCPServerStatus; tools: string[] }[];
}

/** A status change; an absent (or null) field means "unchanged". */
export interface StatusUpdate {
  /** Share of the context window in use, 0..1. */
  context_usage?: number | null;
  context_tokens?: number | null;
  max_context_tokens?: number | null;
  token_usage?: TokenUsage | null;
  message_id?: string | null;
  plan_mode?: boolean | null;
  mcp_status?: MCPStatusSnapshot | null;
}

export interface Notification {
  id: string;
  category: string;
  /** The notification kind, e.g. `task.completed`. */
  type: string;
  source_kind: string;
  source_id: string;
  title: string;
  body: string;
  severity: string;
  /** Unix time in seconds. */
  created_at: number;
  payload: Record<string, JsonValue>;
}

export type ApprovalKind = 'approve' | 'approve_for_session' | 'reject';

export interface ApprovalResponse {
  request_id: string;
  response: ApprovalKind;
  feedback: string;
}

/** An event of a subagent, forwarded to the parent's wire. */
export interface SubagentEvent {
  parent_tool_call_id: string | null;
  agent_id: string | null;
  subagent_type: string | null;
  event: WireEvent;
}

export interface PlanDisplay {
  content: string;
  file_path: string;
}

/** A side question (`/btw`) started. */
export interface BtwBegin {
  id: string;
  question: string;
}

export interface BtwEnd {
  id: string;
  response?: string | null;
  error?: string | null;
}

// biome-ignore lint/complexity/noBannedTypes: events without fields have an empty payload
export type NoFields = {};

/** Every event type with its payload. */
export interface EventPayloads {
  TurnBegin: TurnBegin;
  SteerInput: SteerInput;
  TurnEnd: NoFields;
  StepBegin: StepBegin;
  StepInterrupted: NoFields;
  StepRetry: StepRetry;
  HookTriggered: HookTriggered;
  HookResolved: HookResolved;
  CompactionBegin: NoFields;
  CompactionEnd: NoFields;
  MCPLoadingBegin: NoFields;
  MCPLoadingEnd: NoFields;
  StatusUpdate: StatusUpdate;
  Notification: Notification;
  ContentPart: ContentPart;
  ToolCall: ToolCall;
  ToolCallPart: ToolCallPart;
  ToolResult: ToolResult;
  ApprovalResponse: ApprovalResponse;
  SubagentEvent: SubagentEvent;
  PlanDisplay: PlanDisplay;
  BtwBegin: BtwBegin;
  BtwEnd: BtwEnd;
}

export type WireEventType = keyof EventPayloads;

export interface WireEventOf<K extends WireEventType> {
  readonly type: K;
  readonly payload: EventPayloads[K];
}

/** Any event, discriminated by `type`. */
export type WireEvent = { [K in WireEventType]: WireEventOf<K> }[WireEventType];

/** The events the merge buffer coalesces (kosong's streamed parts). */
export type MergeableEvent =
  | WireEventOf<'ContentPart'>
  | WireEventOf<'ToolCall'>
  | WireEventOf<'ToolCallPart'>;

export const EVENT_TYPES: readonly WireEventType[] = [
  'TurnBegin',
  'SteerInput',
  'TurnEnd',
  'StepBegin',
  'StepInterrupted',
  'StepRetry',
  'HookTriggered',
  'HookResolved',
  'CompactionBegin',
  'CompactionEnd',
  'MCPLoadingBegin',
  'MCPLoadingEnd',
  'StatusUpdate',
  'Notification',
  'ContentPart',
  'ToolCall',
  'ToolCallPart',
  'ToolResult',
  'ApprovalResponse',
  'SubagentEvent',
  'PlanDisplay',
  'BtwBegin',
  'BtwEnd',
];

/** Builds an event; `wireEvent('StepBegin', { n: 1 })`. */
export function wireEvent<K extends WireEventType>(type: K, payload: EventPayloads[K]): WireEventOf<K> {
  return { type, payload };
}

/** The event that carries a streamed fragment: a content part, a tool call, or an argument fragment. */
export function streamedPartEvent(part: StreamedPart): MergeableEvent {
  switch (part.type) {
    case 'function':
      return { type: 'ToolCall', payload: part };
    case 'tool_call_part':
      return { type: 'ToolCallPart', payload: part };
    default:
      return { type: 'ContentPart', payload: part };
  }
}
