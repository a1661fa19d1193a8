import { z } from 'zod';
import type { ContentPart, Message, ToolCall } from './message.js';

/**
 * JSON (de)serialisation of messages in the shape of Kimi CLI's `context.jsonl`: a content of exactly
 * one text part is a plain string, other contents are part lists that keep their null fields, and
 * absent top-level fields are left out.
 */

/**
 * A content part's and a tool call's schemas, built on first use (kosong imports nothing of ours, so
 * not with util's builtOnFirstUse): a start reads neither before its first model request (a prompt
 * given as text is a plain string).
 */
function buildContentPartSchema() {
  const mediaRef = z.object({ url: z.string(), id: z.string().nullish() });
  return z.discriminatedUnion('type', [
    z.object({ type: z.literal('text'), text: z.string() }),
    z.object({ type: z.literal('think'), think: z.string(), encrypted: z.string().nullish() }),
    z.object({ type: z.literal('image_url'), image_url: mediaRef }),
    z.object({ type: z.literal('audio_url'), audio_url: mediaRef }),
    z.object({ type: z.literal('video_url'), video_url: mediaRef }),
  ]);
}
let builtContentPartSchema: ReturnType<typeof buildContentPartSchema> | undefined;
export function contentPartSchema(): ReturnType<typeof buildContentPartSchema> {
  builtContentPartSchema ??= buildContentPartSchema();
  return builtContentPartSchema;
}

function buildToolCallSchema() {
  return z.object({
    type: z.literal('function').default('function'),
    id: z.string(),
    function: z.object({ name: z.string(), arguments: z.string().nullish() }),
    extras: z.record(z.string(), z.unknown()).nullish(),
  });
}
let builtToolCallSchema: ReturnType<typeof buildToolCallSchema> | undefined;
export function toolCallSchema(): ReturnType<typeof buildToolCallSchema> {
  builtToolCallSchema ??= buildToolCallSchema();
  return builtToolCallSchema;
}

/**
 * A whole message's schema, built on first use: messages are parsed when a session's context is
 * read back (a resumed session), never on a new session's path to its first model request.
 */
function buildMessageSchema() {
  return z.object({
    role: z.enum(['system', 'user', 'assistant', 'tool']),
    name: z.string().nullish(),
    // A plain string is one text part and null is no content (Kimi CLI writes both).
    content: z.preprocess(
      (value) => (value == null ? [] : typeof value === 'string' ? [{ type: 'text', text: value }] : value),
      z.array(contentPartSchema()),
    ),
    tool_calls: z.array(toolCallSchema()).nullish(),
    tool_call_id: z.string().nullish(),
    partial: z.boolean().nullish(),
  });
}
let messageSchema: ReturnType<typeof buildMessageSchema> | undefined;

export type MessageJSON = z.input<ReturnType<typeof buildMessageSchema>>;

export function contentPartToJSON(part: ContentPart): Record<string, unknown> {
  switch (part.type) {
    case 'text':
      return { type: 'text', text: part.text };
    case 'think':
      return { type: 'think', think: part.think, encrypted: part.encrypted ?? null };
    case 'image_url':
      return { type: 'image_url', image_url: { url: part.image_url.url, id: part.image_url.id ?? null } };
    case 'audio_url':
      return { type: 'audio_url', audio_url: { url: part.audio_url.url, id: part.audio_url.id ?? null } };
    case 'video_url':
      return { type: 'video_url', video_url: { url: part.video_url.url, id: part.video_url.id ?? null } };
  }
}

export function toolCallToJSON(call: ToolCall): Record<string, unknown> {
  const fn: Record<string, unknown> = { name: call.function.name };
  if (call.function.arguments != null) fn.arguments = call.function.arguments;
  const out: Record<string, unknown> = { type: 'function', id: call.id, function: fn };
  if (call.extras != null) out.extras = call.extras;
  return out;
}

export function messageToJSON(msg: Message): Record<string, unknown> {
  const only = msg.content.length === 1 ? msg.content[0] : undefined;
  const out: Record<string, unknown> = {
    role: msg.role,
    content: only?.type === 'text' ? only.text : msg.content.map(contentPartToJSON),
  };
  if (msg.name != null) out.name = msg.name;
  if (msg.tool_calls?.length) out.tool_calls = msg.tool_calls.map(toolCallToJSON);
  if (msg.tool_call_id != null) out.tool_call_id = msg.tool_call_id;
  if (msg.partial != null) out.partial = msg.partial;
  return out;
}

export function contentPartFromJSON(raw: z.output<ReturnType<typeof contentPartSchema>>): ContentPart {
  switch (raw.type) {
    case 'text':
      return raw;
    case 'think':
      return raw.encrypted
        ? { type: 'think', think: raw.think, encrypted: raw.encrypted }
        : { type: 'think', think: raw.think };
    case 'image_url':
      return { type: 'image_url', image_url: { url: raw.image_url.url, id: raw.image_url.id ?? null } };
    case 'audio_url':
      return { type: 'audio_url', audio_url: { url: raw.audio_url.url, id: raw.audio_url.id ?? null } };
    case 'video_url':
      return { type: 'video_url', video_url: { url: raw.video_url.url, id: raw.video_url.id ?? null } };
  }
}

export function toolCallFromJSON(raw: z.output<ReturnType<typeof toolCallSchema>>): ToolCall {
  const call: ToolCall = {
    type: 'function',
    id: raw.id,
    function: { name: raw.function.name, arguments: raw.function.arguments ?? null },
  };
  if (raw.extras) call.extras = raw.extras;
  return call;
}

/** Parses and validates one message; throws an Error naming the bad field on invalid input. */
export function messageFromJSON(value: unknown): Message {
  messageSchema ??= buildMessageSchema();
  const parsed = messageSchema.safeParse(value);
  if (!parsed.success) throw new Error(`Invalid message: ${z.prettifyError(parsed.error)}`);
  const raw = parsed.data;
  const content = raw.content.map(contentPartFromJSON);
  const msg: Message = { role: raw.role, content };
  if (raw.name != null) msg.name = raw.name;
  if (raw.tool_calls?.length) msg.tool_calls = raw.tool_calls.map(toolCallFromJSON);
  if (raw.tool_call_id != null) msg.tool_call_id = raw.tool_call_id;
  if (raw.partial != null) msg.partial = raw.partial;
  return msg;
}
