import { z } from 'zod';
import { builtOnFirstUse } from '../util/built-on-first-use.js';
import type { WireEvent, WireEventType } from './events.js';
import { describeIssues } from './json.js';
import type { WireMessage, WireMessageType } from './message.js';
import { eventPayloadSchemas, subagentEventSchema } from './payloads.js';
import {
  approvalRequestSchema,
  hookRequestSchema,
  hookResponseSchema,
  questionRequestSchema,
  questionResponseSchema,
  toolCallRequestSchema,
} from './request-payloads.js';
import {
  ApprovalRequest,
  HookRequest,
  type HookResponse,
  QuestionRequest,
  type QuestionResponse,
  ToolCallRequest,
} from './requests.js';

/** Input that is not a valid wire message; the message names the type and the bad fields. */
export class WireParseError extends Error {
  override name = 'WireParseError';
  constructor(
    message: string,
    /** The envelope type, when the input had one. */
    readonly messageType: string | null = null,
  ) {
    super(message);
  }
}

/** Envelope names older Kimi CLI versions wrote, mapped to today's. */
const LEGACY_TYPE_NAMES: Record<string, WireMessageType> = { ApprovalRequestResolved: 'ApprovalResponse' };

// Built on first use: a start reads no wire message before its first model request.
const envelopeSchema = builtOnFirstUse(() =>
  z.object({ type: z.string(), payload: z.record(z.string(), z.unknown()) }),
);

/**
 * Parses and validates one `{type, payload}` envelope into a wire message. Requests come back pending,
 * with nobody waiting. Throws WireParseError on an unknown type or an invalid payload.
 */
export function wireMessageFromJSON(value: unknown): WireMessage {
  const envelope = envelopeSchema().safeParse(value);
  if (!envelope.success) {
    throw new WireParseError(`Invalid wire message envelope: ${describeIssues(envelope.error)}`);
  }
  const type = LEGACY_TYPE_NAMES[envelope.data.type] ?? envelope.data.type;
  const payload = envelope.data.payload;
  switch (type) {
    case 'ApprovalRequest':
      return new ApprovalRequest(parsePayload(type, approvalRequestSchema, payload));
    case 'ToolCallRequest':
      return new ToolCallRequest(parsePayload(type, toolCallRequestSchema, payload));
    case 'QuestionRequest':
      return new QuestionRequest(parsePayload(type, questionRequestSchema, payload));
    case 'HookRequest':
      return new HookRequest(parsePayload(type, hookRequestSchema, payload));
    case 'SubagentEvent':
      return parseSubagentEvent(payload);
    default:
      if (!isEventType(type))
        throw new WireParseError(`Unknown wire message type: ${JSON.stringify(type)}`, type);
      return {
        type,
        payload: parsePayload(type, eventPayloadSchemas[type] as z.ZodType, payload),
      } as WireEvent;
  }
}

/** Like wireMessageFromJSON, but the message must be an event. */
export function wireEventFromJSON(value: unknown): WireEvent {
  const message = wireMessageFromJSON(value);
  if (message instanceof ApprovalRequest || message instanceof ToolCallRequest)
    throw notAnEvent(message.type);
  if (message instanceof QuestionRequest || message instanceof HookRequest) throw notAnEvent(message.type);
  return message;
}

export function questionResponseFromJSON(value: unknown): QuestionResponse {
  return parsePayload('QuestionResponse', questionResponseSchema, value);
}

export function hookResponseFromJSON(value: unknown): HookResponse {
  return parsePayload('HookResponse', hookResponseSchema, value);
}

function parseSubagentEvent(payload: unknown): WireEvent {
  const fields = parsePayload('SubagentEvent', subagentEventSchema(), payload);
  let event: WireEvent;
  try {
    event = wireEventFromJSON(fields.event);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new WireParseError(`Invalid SubagentEvent payload: field \`event\`: ${reason}`, 'SubagentEvent');
  }
  return { type: 'SubagentEvent', payload: { ...fields, event } };
}

function parsePayload<T>(type: string, schema: z.ZodType<T>, payload: unknown): T {
  const parsed = schema.safeParse(payload);
  if (!parsed.success)
    throw new WireParseError(`Invalid ${type} payload: ${describeIssues(parsed.error)}`, type);
  return parsed.data;
}

function isEventType(type: string): type is Exclude<WireEventType, 'SubagentEvent'> {
  return Object.hasOwn(eventPayloadSchemas, type);
}

function notAnEvent(type: string): WireParseError {
  return new WireParseError(`Expected a wire event, got the request type ${type}`, type);
}
