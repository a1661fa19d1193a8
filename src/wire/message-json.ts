import type { z } from 'zod';
import type { ToolReturnValue } from '../kosong/tool.js';
import { encoderFor, encodeWith } from './encode.js';
import type { WireEventType } from './events.js';
import type { WireMessage } from './message.js';
import { eventPayloadSchemas, nestedEventSchema, toolReturnValueSchema } from './payloads.js';
import {
  approvalRequestSchema,
  hookRequestSchema,
  questionRequestSchema,
  toolCallRequestSchema,
} from './request-payloads.js';

/**
 * Wire messages as Kimi CLI's JSON: the `{type, payload}` envelope, where a payload has every field of
 * its schema (absent optional fields as null, defaults filled), as pydantic writes them. wire.jsonl,
 * wire-mode clients and the web UI read this shape. The encoding is derived from the schemas.
 */

export interface WireEnvelopeJSON {
  type: string;
  payload: Record<string, unknown>;
}

/** The payload schema of a message type (an event's is built on its first read); undefined for no type. */
function payloadSchemaOf(type: string): z.ZodType | undefined {
  switch (type) {
    case 'ApprovalRequest':
      return approvalRequestSchema;
    case 'ToolCallRequest':
      return toolCallRequestSchema;
    case 'QuestionRequest':
      return questionRequestSchema;
    case 'HookRequest':
      return hookRequestSchema;
    default:
      return Object.hasOwn(eventPayloadSchemas, type)
        ? eventPayloadSchemas[type as WireEventType]
        : undefined;
  }
}

// A SubagentEvent's event is itself an envelope (registered before the encoders are compiled).
encodeWith(nestedEventSchema, (event) => wireMessageToJSON(event as WireMessage));

// Each encoder is compiled on its type's first message (encoderFor keeps it): compiling all of them
// when the module loads cost a start ~8 ms of CPU before its first model request, for types most
// runs never send.
export function wireMessageToJSON(message: WireMessage): WireEnvelopeJSON {
  const schema = payloadSchemaOf(message.type);
  if (!schema) throw new TypeError(`Not a wire message type: ${message.type}`);
  return { type: message.type, payload: encoderFor(schema)(message.payload) as Record<string, unknown> };
}

export function returnValueToJSON(value: ToolReturnValue): Record<string, unknown> {
  return encoderFor(toolReturnValueSchema())(value) as Record<string, unknown>;
}
