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

/**
 * Pieces joined with commas, and the kept pieces they were joined from. The history of one step's
 * request is the last one's plus a message or two, and the tools are the same: a list that begins
 * with the same kept pieces (the same objects, whose bytes never change) takes their joined bytes
 * as one piece. Joining ~25 tools and every message again, piece by piece, was most of the body's
 * cost, and made Buffer.concat hot enough that V8 compiled it during a session's first steps.
 */
interface JoinedRun {
  readonly kept: readonly Kept[];
  /** Where each piece's bytes end in `bytes`. */
  readonly ends: readonly number[];
  readonly bytes: Buffer;
}

/** Keyed by a conversation's first message: a subagent's requests do not replace the main agent's. */
const historyRuns = new WeakMap<Message, JoinedRun>();
/** Keyed by the first tool's kept piece (a toolset's tools, in their order). */
const toolRuns = new WeakMap<Kept, JoinedRun>();

const COMMA = Buffer.from(',');

export function chatBodyBytes(parts: ChatBodyParts): Buffer {
  const { model, systemPrompt, history, dialect, tools, convertTool, toolDialect, rest } = parts;
  const pieces: Buffer[] = [Buffer.from(`{"model":${JSON.stringify(model)},"messages":[`)];
  if (systemPrompt) {
    if (systemPiece === null || systemPiece.from[0] !== systemPrompt)
      systemPiece = { from: [systemPrompt], bytes: json({ role: 'system', content: systemPrompt }) };
    pieces.push(systemPiece.bytes);
  }
  if (history.length > 0) {
    const messages: Kept[] = new Array(history.length);
    for (let i = 0; i < history.length; i++) messages[i] = messageKept(history[i] as Message, dialect);
    if (systemPrompt) pieces.push(COMMA);
    pieces.push(joined(historyRuns, history[0] as Message, messages));
  }
  pieces.push(Buffer.from(']'));
  if (tools.length > 0) {
    const kept: Kept[] = new Array(tools.length);
    for (let i = 0; i < tools.length; i++) kept[i] = toolKept(tools[i] as Tool, convertTool, toolDialect);
    pieces.push(Buffer.from(',"tools":['), joined(toolRuns, kept[0] as Kept, kept), Buffer.from(']'));
  }
  const tail = JSON.stringify(rest);
  pieces.push(Buffer.from(tail === '{}' ? '}' : `,${tail.slice(1)}`));
  return Buffer.concat(pieces);
}

/**
 * `items`' bytes joined with commas: the run kept under `key` as far as it holds the same kept
 * pieces, then the rest; kept under `key` for the next body.
 */
function joined<K extends object>(runs: WeakMap<K, JoinedRun>, key: K, items: readonly Kept[]): Buffer {
  const run = runs.get(key);
  let same = 0;
  if (run !== undefined) {
    const most = Math.min(run.kept.length, items.length);
    while (same < most && run.kept[same] === items[same]) same++;
    if (same === items.length && same === run.kept.length) return run.bytes;
  }
  const pieces: Buffer[] = [];
  const ends: number[] = [];
  let length = 0;
  if (run !== undefined && same > 0) {
    for (let i = 0; i < same; i++) ends.push(run.ends[i] as number);
    length = ends[same - 1] as number;
    pieces.push(run.bytes.subarray(0, length));
  }
  for (let i = same; i < items.length; i++) {
    if (i > 0) {
      pieces.push(COMMA);
      length += 1;
    }
    const bytes = (items[i] as Kept).bytes;
    pieces.push(bytes);
    length += bytes.length;
    ends.push(length);
  }
  const bytes = Buffer.concat(pieces, length);
  runs.set(key, { kept: items, ends, bytes });
  return bytes;
}

/**
 * A tool's kept piece. Keyed by the schema object: a toolset hands out new Tool objects each step,
 * but each tool's parameters schema is made once and kept (a tool without an object schema is
 * written each time, a piece of its own).
 */
function toolKept(tool: Tool, convertTool: (tool: Tool) => ChatRequestTool, toolDialect: string): Kept {
  const schema = tool.parameters;
  if (typeof schema !== 'object' || schema === null) return { from: [], bytes: json(convertTool(tool)) };
  const known = toolPieces.get(schema);
  if (
    known !== undefined &&
    known.from[0] === toolDialect &&
    known.from[1] === tool.name &&
    known.from[2] === tool.description
  )
    return known;
  const kept = { from: [toolDialect, tool.name, tool.description], bytes: json(convertTool(tool)) };
  toolPieces.set(schema, kept);
  return kept;
}

/**
 * A message's kept piece while every value the conversion reads is what its bytes were written
 * from, compared in place (`keptFor`); written again (a new piece) otherwise.
 */
function messageKept(message: Message, dialect: HistoryDialect): Kept {
  const known = messagePieces.get(message);
  if (known !== undefined && keptFor(known.from, message, dialect)) return known;
  const kept = { from: messageValues(message, dialect), bytes: json(convertMessage(message, dialect)) };
  messagePieces.set(message, kept);
  return kept;
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
