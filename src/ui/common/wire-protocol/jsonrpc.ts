import { z } from 'zod';

/**
 * The JSON-RPC 2.0 framing of wire mode: one object per line, requests with string ids, `event`
 * notifications and `request` calls from the agent, and the client's responses to those.
 */

export const JSONRPC_VERSION = '2.0';

export const ErrorCodes = {
  PARSE_ERROR: -32700,
  INVALID_REQUEST: -32600,
  METHOD_NOT_FOUND: -32601,
  INVALID_PARAMS: -32602,
  INTERNAL_ERROR: -32603,
  /** A turn is running (or none is, for steer/cancel). */
  INVALID_STATE: -32000,
  LLM_NOT_SET: -32001,
  LLM_NOT_SUPPORTED: -32002,
  CHAT_PROVIDER_ERROR: -32003,
  /** The login of an OAuth provider could not be refreshed (Kimi CLI's code). */
  AUTH_EXPIRED: -32004,
} as const;

export type JsonRpcId = string | number | null;

export interface JsonRpcErrorObject {
  code: number;
  message: string;
  data?: unknown;
}

/** A request the client sent us: a method to run, answered with the same id. */
export interface InboundRequest {
  kind: 'request';
  id: string;
  method: string;
  params: unknown;
}

/** The client's answer to a `request` we sent. */
export type InboundResponse =
  | { kind: 'response'; id: string; ok: true; result: unknown }
  | { kind: 'response'; id: string; ok: false; error: JsonRpcErrorObject };

/** A notification from the client (a request without an `id`): run, never answered. */
export interface InboundNotification {
  kind: 'notification';
  method: string;
  params: unknown;
}

/** A line we cannot act on, with the error to answer (id null when the line had no usable id). */
export interface InboundInvalid {
  kind: 'invalid';
  id: JsonRpcId;
  error: JsonRpcErrorObject;
}

/**
 * One JSON-RPC message the protocol core sends. Events and requests are already JSON text (a front
 * end that fans them out to several clients encodes each once); a response keeps its id and body
 * apart, so a transport that multiplexes clients can put the client's own id back.
 */
export type OutboundFrame =
  | { kind: 'response'; id: JsonRpcId; body: { result: unknown } | { error: JsonRpcErrorObject } }
  | { kind: 'event'; text: string }
  | { kind: 'request'; id: string; text: string };

export type InboundMessage = InboundRequest | InboundNotification | InboundResponse | InboundInvalid;

const idSchema = z.union([z.string(), z.number(), z.null()]);

const errorObjectSchema = z.object({
  code: z.number().int(),
  message: z.string(),
  data: z.unknown().optional(),
});

/**
 * Classifies one message (a line, or a WebSocket frame). Never throws: malformed JSON, objects that are neither a request nor a
 * response, and non-string request ids all come back as `invalid` with the error to send.
 */
export function parseInboundLine(line: string): InboundMessage {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return invalid(null, ErrorCodes.PARSE_ERROR, 'Parse error: the line is not valid JSON.');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    const what = Array.isArray(value) ? 'batches are not supported' : 'expected a JSON object';
    return invalid(null, ErrorCodes.INVALID_REQUEST, `Invalid request: ${what}.`);
  }
  const message = value as Record<string, unknown>;
  const idField = idSchema.safeParse(message.id);
  const echoId: JsonRpcId = idField.success ? idField.data : null;
  if (message.jsonrpc !== JSONRPC_VERSION)
    return invalid(echoId, ErrorCodes.INVALID_REQUEST, 'Invalid request: `jsonrpc` must be "2.0".');

  if ('method' in message) {
    if (typeof message.method !== 'string')
      return invalid(echoId, ErrorCodes.INVALID_REQUEST, 'Invalid request: `method` must be a string.');
    // JSON-RPC 2.0: a request without an `id` is a notification, and the server must not reply.
    if (!('id' in message)) return { kind: 'notification', method: message.method, params: message.params };
    if (typeof message.id !== 'string')
      return invalid(echoId, ErrorCodes.INVALID_REQUEST, 'Invalid request: `id` must be a string.');
    return { kind: 'request', id: message.id, method: message.method, params: message.params };
  }

  const hasResult = 'result' in message;
  const hasError = 'error' in message;
  if (hasResult === hasError || typeof message.id !== 'string') {
    return invalid(
      echoId,
      ErrorCodes.INVALID_REQUEST,
      'Invalid request: expected a request (`method`, string `id`) or a response (string `id` with `result` or `error`).',
    );
  }
  if (hasResult) return { kind: 'response', id: message.id, ok: true, result: message.result };
  const error = errorObjectSchema.safeParse(message.error);
  // A response that says "error" is an error answer even when its error object is malformed.
  return {
    kind: 'response',
    id: message.id,
    ok: false,
    error: error.success
      ? error.data
      : { code: ErrorCodes.INTERNAL_ERROR, message: 'The client answered with a malformed error.' },
  };
}

function invalid(id: JsonRpcId, code: number, message: string): InboundInvalid {
  return { kind: 'invalid', id, error: { code, message } };
}

/** A message's JSON text (one line of wire mode without its newline, or one WebSocket frame). */
export function frameText(frame: OutboundFrame): string {
  if (frame.kind !== 'response') return frame.text;
  return JSON.stringify({ jsonrpc: JSONRPC_VERSION, id: frame.id, ...frame.body });
}

export function successFrame(id: JsonRpcId, result: unknown): OutboundFrame {
  return { kind: 'response', id, body: { result } };
}

export function errorFrame(id: JsonRpcId, error: JsonRpcErrorObject): OutboundFrame {
  return { kind: 'response', id, body: { error } };
}

/** An agent event: a notification whose params are the `{type, payload}` envelope. */
export function eventFrame(envelope: unknown): OutboundFrame {
  return {
    kind: 'event',
    text: JSON.stringify({ jsonrpc: JSONRPC_VERSION, method: 'event', params: envelope }),
  };
}

/** An agent request: the id is the wire request's id, the params its envelope. */
export function requestFrame(id: string, envelope: unknown): OutboundFrame {
  return {
    kind: 'request',
    id,
    text: JSON.stringify({ jsonrpc: JSONRPC_VERSION, method: 'request', id, params: envelope }),
  };
}

/** An error a method handler answers with. */
export class MethodError extends Error {
  override name = 'MethodError';
  constructor(
    readonly code: number,
    message: string,
    /** JSON-RPC's `data`: more for a person than the message a program keys on. */
    readonly data?: unknown,
  ) {
    super(message);
  }
}

/** Kimi CLI's message of `-32001`: programs key on it; how to configure a model goes in `data`. */
export function llmNotSetError(howTo: string): MethodError {
  return new MethodError(ErrorCodes.LLM_NOT_SET, 'LLM is not set', { detail: howTo });
}
