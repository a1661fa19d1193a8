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
    const from = [systemPrompt];
    if (systemPiece === null || !sameValues(systemPiece.from, from))
      systemPiece = { from, bytes: json({ role: 'system', content: systemPrompt }) };
    add(systemPiece.bytes);
  }
  for (const message of history)
    add(
      kept(messagePieces, message, messageValues(message, dialect), () =>
        json(convertMessage(message, dialect)),
      ),
    );
  pieces.push(Buffer.from(']'));
  if (tools.length > 0) {
    pieces.push(Buffer.from(',"tools":['));
    first = true;
    for (const tool of tools) {
      // Keyed by the schema object: a toolset hands out new Tool objects each step, but each tool's
      // parameters schema is made once and kept (a tool without an object schema is written each time).
      const schema = tool.parameters;
      const write = () => json(convertTool(tool));
      add(
        typeof schema === 'object' && schema !== null
          ? kept(toolPieces, schema, [toolDialect, tool.name, tool.description], write)
          : write(),
      );
    }
    pieces.push(Buffer.from(']'));
  }
  const tail = JSON.stringify(rest);
  pieces.push(Buffer.from(tail === '{}' ? '}' : `,${tail.slice(1)}`));
  return Buffer.concat(pieces);
}

function kept<K extends object>(
  store: WeakMap<K, Kept>,
  key: K,
  from: readonly unknown[],
  write: () => Buffer,
): Buffer {
  const known = store.get(key);
  if (known !== undefined && sameValues(known.from, from)) return known.bytes;
  const bytes = write();
  store.set(key, { from, bytes });
  return bytes;
}

function json(value: unknown): Buffer {
  return Buffer.from(JSON.stringify(value), 'utf8');
}

function sameValues(a: readonly unknown[], b: readonly unknown[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
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
