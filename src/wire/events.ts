import type { z } from 'zod';
import type { StreamedPart } from '../kosong/message.js';
import { assertNever } from '../util/assert-never.js';
import { eventPayloadSchemas, type subagentEventSchema } from './payloads.js';

export type {
  ApprovalKind,
  HookAction,
  MCPServerStatus,
  MCPStatusSnapshot,
  UserInput,
} from './payloads.js';

/**
 * The events of the Wire: one-way messages from the soul to every front end. In memory each event is
 * `{type, payload}`, the same envelope Kimi CLI writes to wire.jsonl and sends to wire-mode clients, so
 * `type` is the envelope name and the payload fields carry Kimi CLI's snake_case names. Each payload
 * type is the output of its schema in payloads.ts; content parts, tool calls and tool results are
 * kosong's own objects.
 */

type PayloadSchemas = typeof eventPayloadSchemas;
type SchemaPayloads = { [K in keyof PayloadSchemas]: z.output<PayloadSchemas[K]> };

/** An event of a subagent, forwarded to the parent's wire. */
export interface SubagentEvent extends Omit<z.output<ReturnType<typeof subagentEventSchema>>, 'event'> {
  event: WireEvent;
}

/** Every event type with its payload. */
export interface EventPayloads extends Omit<SchemaPayloads, 'SubagentEvent'> {
  SubagentEvent: SubagentEvent;
}

export type TurnBegin = EventPayloads['TurnBegin'];
export type SteerInput = EventPayloads['SteerInput'];
export type StepBegin = EventPayloads['StepBegin'];
export type StepRetry = EventPayloads['StepRetry'];
export type HookTriggered = EventPayloads['HookTriggered'];
export type HookResolved = EventPayloads['HookResolved'];
export type StatusUpdate = EventPayloads['StatusUpdate'];
export type Notification = EventPayloads['Notification'];
export type ApprovalResponse = EventPayloads['ApprovalResponse'];
export type PlanDisplay = EventPayloads['PlanDisplay'];
export type ToolOutput = EventPayloads['ToolOutput'];
export type BtwBegin = EventPayloads['BtwBegin'];
export type BtwEnd = EventPayloads['BtwEnd'];
export type RewindDone = EventPayloads['RewindDone'];

/** The payload of the events without fields (TurnEnd, StepInterrupted, CompactionBegin, ...). */
export type NoFields = EventPayloads['TurnEnd'];

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

export const EVENT_TYPES = Object.keys(eventPayloadSchemas) as readonly WireEventType[];

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
    case 'text':
    case 'think':
    case 'image_url':
    case 'audio_url':
    case 'video_url':
      return { type: 'ContentPart', payload: part };
  }
  return assertNever(part, 'streamed part');
}
