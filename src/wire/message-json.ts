import type { z } from 'zod';
import type { ToolReturnValue } from '../kosong/tool.js';
import { encoderFor, encodeWith } from './encode.js';
import type { WireMessage, WireMessageType } from './message.js';
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

const payloadSchemas: { readonly [K in WireMessageType]: z.ZodType } = {
  ...eventPayloadSchemas,
  ApprovalRequest: approvalRequestSchema,
  ToolCallRequest: toolCallRequestSchema,
  QuestionRequest: questionRequestSchema,
  HookRequest: hookRequestSchema,
};

// A SubagentEvent's event is itself an envelope (registered before the encoders are compiled).
encodeWith(nestedEventSchema, (event) => wireMessageToJSON(event as WireMessage));

const payloadEncoders = new Map(
  Object.entries(payloadSchemas).map(([type, schema]) => [type, encoderFor(schema)] as const),
);

export function wireMessageToJSON(message: WireMessage): WireEnvelopeJSON {
  const encode = payloadEncoders.get(message.type);
  if (!encode) throw new TypeError(`Not a wire message type: ${message.type}`);
  return { type: message.type, payload: encode(message.payload) as Record<string, unknown> };
}

const encodeReturnValue = encoderFor(toolReturnValueSchema);

export function returnValueToJSON(value: ToolReturnValue): Record<string, unknown> {
  return encodeReturnValue(value) as Record<string, unknown>;
}
