import type { ContentPart, Message } from '../../message.js';
import type { Tool } from '../../tool.js';
import { type ChatRequestTool, convertMessage, type HistoryDialect } from './chat-request.js';

/**
 * The bytes of a Chat Completions request body, from pieces kept between requests.
 *
 * Each step sends the whole request again: the tool schemas (~40 KB with the built-in tools), the
 * system prompt and the history, of which only the last messages are new. Writing all of it to JSON
 * and then to UTF-8 again was a third of a millisecond of CPU per step and ~80 KB of garbage. Here
 * each message and each tool is written once and its bytes kept; a request is their concatenation,
 * byte for byte what `JSON.stringify` of the whole body gives.
 *
 * A kept piece is used only while everything it was written from is still the same: the same
 * values (compared with `===`) of every field the conversion reads. A message or tool changed in
 * place is written again.
 */
export interface ChatBodyParts {
  model: string;
  systemPrompt: string;
  history: readonly Message[];
  dialect: HistoryDialect;
  tools: readonly Tool[];
  convertTool: (tool: Tool) => ChatRequestTool;
  /** Names the conversion (the provider's): a tool's bytes are kept per conversion. */
  toolDialect: string;
  /** The fields after `messages` and `tools` (stream, stream_options, generation settings), in order. */
  rest: Record<string, unknown>;
}

interface Kept {
  /** What the bytes were written from, field by field. */
  from: readonly unknown[];
  bytes: Buffer;
}

const messagePieces = new WeakMap<Message, Kept>();
const toolPieces = new WeakMap<object, Kept>();
let systemPiece: Kept | null = null;

const COMMA = Buffer.from(',');

export function chatBodyBytes(parts: ChatBodyParts): Buffer {
  const { model, systemPrompt, history, dialect, tools, convertTool, toolDialect, rest } = parts;
  const pieces: Buffer[] = [Buffer.from(`{"model":${JSON.stringify(model)},"messages":[`)];
  let first = true;
  const add = (bytes: Buffer): void => {
    if (!first) pieces.push(COMMA);
    first = false;
    pieces.push(bytes);
  };
  if (systemPrompt) {
    if (systemPiece === null || systemPiece.from[0] !== systemPrompt)
      systemPiece = { from: [systemPrompt], bytes: json({ role: 'system', content: systemPrompt }) };
    add(systemPiece.bytes);
  }
  for (let i = 0; i < history.length; i++) add(messageBytes(history[i] as Message, dialect));
  pieces.push(Buffer.from(']'));
  if (tools.length > 0) {
    pieces.push(Buffer.from(',"tools":['));
    first = true;
    for (let i = 0; i < tools.length; i++) {
      const tool = tools[i] as Tool;
      // Keyed by the schema object: a toolset hands out new Tool objects each step, but each tool's
      // parameters schema is made once and kept (a tool without an object schema is written each time).
      const schema = tool.parameters;
      if (typeof schema !== 'object' || schema === null) {
        add(json(convertTool(tool)));
        continue;
      }
      const known = toolPieces.get(schema);
      if (
        known !== undefined &&
        known.from[0] === toolDialect &&
        known.from[1] === tool.name &&
        known.from[2] === tool.description
      ) {
        add(known.bytes);
        continue;
      }
      const bytes = json(convertTool(tool));
      toolPieces.set(schema, { from: [toolDialect, tool.name, tool.description], bytes });
      add(bytes);
    }
    pieces.push(Buffer.from(']'));
  }
  const tail = JSON.stringify(rest);
  pieces.push(Buffer.from(tail === '{}' ? '}' : `,${tail.slice(1)}`));
  return Buffer.concat(pieces);
}

/**
 * A message's bytes: the kept ones while every value the conversion reads is what they were written
 * from, compared in place (`keptFor`); written again otherwise.
 */
function messageBytes(message: Message, dialect: HistoryDialect): Buffer {
  const known = messagePieces.get(message);
  if (known !== undefined && keptFor(known.from, message, dialect)) return known.bytes;
  const bytes = json(convertMessage(message, dialect));
  messagePieces.set(message, { from: messageValues(message, dialect), bytes });
  return bytes;
}

/** Whether `from` holds `messageValues(message, dialect)`, without making that list. */
function keptFor(from: readonly unknown[], message: Message, dialect: HistoryDialect): boolean {
  const content = message.content;
  const calls = message.tool_calls;
  const length = 8 + 2 * content.length + 3 * (calls?.length ?? 0);
  if (
    from.length !== length ||
    from[0] !== dialect.reasoningKey ||
    from[1] !== dialect.keepEmptyReasoning ||
    from[2] !== dialect.omitEmptyContentWithToolCalls ||
    from[3] !== message.role ||
    from[4] !== message.name ||
    from[5] !== message.tool_call_id ||
    from[6] !== content.length
  )
    return false;
  let at = 7;
  for (let i = 0; i < content.length; i++, at += 2) {
    const part = content[i] as ContentPart;
    if (from[at] !== part.type || from[at + 1] !== partValue(part)) return false;
  }
  if (from[at] !== calls?.length) return false;
  at++;
  for (let i = 0; i < (calls?.length ?? 0); i++, at += 3) {
    const call = (calls as NonNullable<Message['tool_calls']>)[i] as NonNullable<
      Message['tool_calls']
    >[number];
    if (
      from[at] !== call.id ||
      from[at + 1] !== call.function.name ||
      from[at + 2] !== call.function.arguments
    )
      return false;
  }
  return true;
}

function json(value: unknown): Buffer {
  return Buffer.from(JSON.stringify(value), 'utf8');
}

/** Every value `convertMessage` reads, in a fixed order (a change of any makes another body). */
function messageValues(message: Message, dialect: HistoryDialect): unknown[] {
  const values: unknown[] = [
    dialect.reasoningKey,
    dialect.keepEmptyReasoning,
    dialect.omitEmptyContentWithToolCalls,
    message.role,
    message.name,
    message.tool_call_id,
    message.content.length,
  ];
  for (const part of message.content) values.push(part.type, partValue(part));
  const calls = message.tool_calls;
  values.push(calls?.length);
  for (const call of calls ?? []) values.push(call.id, call.function.name, call.function.arguments);
  return values;
}

/** The one value of a part the conversion reads besides its type. */
function partValue(part: ContentPart): string {
  switch (part.type) {
    case 'text':
      return part.text;
    case 'think':
      return part.think;
    case 'image_url':
      return part.image_url.url;
    case 'audio_url':
      return part.audio_url.url;
    case 'video_url':
      return part.video_url.url;
  }
}
