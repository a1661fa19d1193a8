import { z } from 'zod';
import type { MediaRef, ThinkPart, TokenUsage, ToolCall, ToolCallPart } from '../../message.js';
import {
  DirectiveProblem,
  describeIssues,
  isNullWord,
  isPlainObject,
  parseJsonObject,
  parseMapping,
  stripQuotes,
} from './dsl-values.js';
import { ScriptError, type ScriptedFailure, type ScriptedTurn } from './scripted-turn.js';

/**
 * The script language of the scripted and echo providers: one `kind: payload` directive per line.
 * The kinds and their payloads follow Kimi CLI's echo DSL, so its test scripts run here unchanged;
 * `error` may also come after parts, to cut a stream part-way (see `ScriptedTurn.failure`).
 */
export const DIRECTIVE_KINDS = [
  'id',
  'usage',
  'text',
  'think',
  'image_url',
  'audio_url',
  'video_url',
  'tool_call',
  'tool_call_part',
  'error',
] as const;

export type DirectiveKind = (typeof DIRECTIVE_KINDS)[number];

/** Parses a script; throws `ScriptError` naming the line for anything it cannot read. */
export function parseScript(text: string): ScriptedTurn {
  const turn: ScriptedTurn = { id: null, usage: null, parts: [], failure: null };
  let failureLine = 0;
  const lines = text.split(/\r?\n/);
  for (let index = 0; index < lines.length; index++) {
    const lineNumber = index + 1;
    const line = (lines[index] as string).trim();
    if (isIgnored(line)) continue;
    if (turn.failure !== null) {
      throw new ScriptError(
        lineNumber,
        `the error directive of line ${failureLine} must be the last directive`,
      );
    }
    const colon = line.indexOf(':');
    if (colon < 0) throw new ScriptError(lineNumber, `expected 'kind: payload', got '${preview(line)}'`);
    const kind = line.slice(0, colon).trim().toLowerCase();
    const rest = line.slice(colon + 1);
    const payload = rest.startsWith(' ') ? rest.slice(1) : rest;
    try {
      applyDirective(turn, kind, payload);
    } catch (error) {
      if (error instanceof DirectiveProblem) throw new ScriptError(lineNumber, error.message);
      throw error;
    }
    if (turn.failure !== null) failureLine = lineNumber;
  }
  if (turn.parts.length === 0 && turn.failure === null) {
    throw new ScriptError(
      null,
      'it produces no streamable parts (add a text, think, media or tool_call line)',
    );
  }
  return turn;
}

function isIgnored(line: string): boolean {
  return line === '' || line.startsWith('#') || line.startsWith('```') || line.toLowerCase() === 'echo';
}

function preview(line: string): string {
  return line.length > 80 ? `${line.slice(0, 77)}...` : line;
}

function applyDirective(turn: ScriptedTurn, kind: string, payload: string): void {
  switch (kind as DirectiveKind) {
    case 'id': {
      const id = stripQuotes(payload.trim());
      if (id === '') throw new DirectiveProblem('id needs a value');
      turn.id = id;
      return;
    }
    case 'usage':
      turn.usage = parseUsage(payload);
      return;
    case 'text':
      turn.parts.push({ type: 'text', text: stripQuotes(payload) });
      return;
    case 'think':
      turn.parts.push(parseThink(payload));
      return;
    case 'image_url':
      turn.parts.push({ type: 'image_url', image_url: parseMedia(payload, kind) });
      return;
    case 'audio_url':
      turn.parts.push({ type: 'audio_url', audio_url: parseMedia(payload, kind) });
      return;
    case 'video_url':
      turn.parts.push({ type: 'video_url', video_url: parseMedia(payload, kind) });
      return;
    case 'tool_call':
      turn.parts.push(parseToolCall(payload));
      return;
    case 'tool_call_part':
      turn.parts.push(parseToolCallPart(payload));
      return;
    case 'error':
      turn.failure = parseFailure(payload);
      return;
    default:
      throw new DirectiveProblem(`unknown directive '${kind}' (known: ${DIRECTIVE_KINDS.join(', ')})`);
  }
}

const tokenCount = z.int().min(0);
const usageSchema = z.strictObject({
  input_other: tokenCount.optional(),
  output: tokenCount.optional(),
  input_cache_read: tokenCount.optional(),
  input_cache_creation: tokenCount.optional(),
});

function parseUsage(payload: string): TokenUsage {
  const parsed = usageSchema.safeParse(parseMapping(payload, 'usage', { numbers: true }));
  if (!parsed.success) throw new DirectiveProblem(`bad usage: ${describeIssues(parsed.error)}`);
  const usage = parsed.data;
  return {
    input_other: usage.input_other ?? 0,
    output: usage.output ?? 0,
    input_cache_read: usage.input_cache_read ?? 0,
    input_cache_creation: usage.input_cache_creation ?? 0,
  };
}

const signedThinkSchema = z.strictObject({ think: z.string(), encrypted: z.string().nullable().optional() });

/** Plain text, or `{"think": …, "encrypted": …}` for signed reasoning. */
function parseThink(payload: string): ThinkPart {
  const trimmed = payload.trim();
  if (trimmed.startsWith('{')) {
    let value: unknown;
    try {
      value = JSON.parse(trimmed);
    } catch {
      value = undefined; // reasoning text that merely starts with a brace
    }
    if (isPlainObject(value) && 'think' in value) {
      const parsed = signedThinkSchema.safeParse(value);
      if (!parsed.success) throw new DirectiveProblem(`bad think: ${describeIssues(parsed.error)}`);
      const { think, encrypted } = parsed.data;
      return encrypted ? { type: 'think', think, encrypted } : { type: 'think', think };
    }
  }
  return { type: 'think', think: stripQuotes(payload) };
}

const mediaSchema = z.strictObject({ url: z.string().min(1), id: z.string().nullable().optional() });

function parseMedia(payload: string, kind: string): MediaRef {
  const trimmed = payload.trim();
  if (trimmed.startsWith('{')) {
    const parsed = mediaSchema.safeParse(parseJsonObject(trimmed, `${kind} payload`));
    if (!parsed.success) throw new DirectiveProblem(`bad ${kind}: ${describeIssues(parsed.error)}`);
    return { url: parsed.data.url, id: parsed.data.id ?? null };
  }
  const url = stripQuotes(trimmed);
  if (url === '') throw new DirectiveProblem(`${kind} needs a URL or {"url": …, "id": …}`);
  return { url, id: null };
}

const toolArguments = z.string().nullable().optional();
const toolCallSchema = z.strictObject({
  type: z.literal('function').optional(),
  id: z.string().min(1),
  name: z.string().min(1).optional(),
  arguments: toolArguments,
  function: z.strictObject({ name: z.string().min(1).optional(), arguments: toolArguments }).optional(),
  extras: z.record(z.string(), z.unknown()).nullable().optional(),
});

function parseToolCall(payload: string): ToolCall {
  const parsed = toolCallSchema.safeParse(parseMapping(payload, 'tool_call'));
  if (!parsed.success) throw new DirectiveProblem(`bad tool_call: ${describeIssues(parsed.error)}`);
  const raw = parsed.data;
  const name = raw.name ?? raw.function?.name;
  if (name === undefined) throw new DirectiveProblem('tool_call needs a name (or function.name)');
  const args = raw.arguments !== undefined ? raw.arguments : raw.function?.arguments;
  const call: ToolCall = { type: 'function', id: raw.id, function: { name, arguments: args ?? null } };
  if (raw.extras) call.extras = raw.extras;
  return call;
}

/**
 * A fragment of tool-call arguments. The payload is the fragment itself (a double-quoted payload is
 * a JSON string and is decoded); `{"arguments_part": …}` wraps one explicitly, JSON-encoding an
 * object or list value. Empty, `null` and `none` mean a fragment with no text.
 */
function parseToolCallPart(payload: string): ToolCallPart {
  const trimmed = payload.trim();
  if (isNullWord(trimmed)) return { type: 'tool_call_part', arguments_part: null };
  let value: unknown;
  try {
    value = JSON.parse(trimmed);
  } catch {
    return { type: 'tool_call_part', arguments_part: stripQuotes(trimmed) };
  }
  if (isPlainObject(value) && Object.keys(value).length === 1 && 'arguments_part' in value) {
    const inner = value.arguments_part;
    if (inner === null || inner === '') return { type: 'tool_call_part', arguments_part: null };
    return {
      type: 'tool_call_part',
      arguments_part: typeof inner === 'string' ? inner : JSON.stringify(inner),
    };
  }
  // Any other JSON (a whole argument object, a number) is the fragment exactly as written.
  return { type: 'tool_call_part', arguments_part: typeof value === 'string' ? value : trimmed };
}

const failureSchema = z.strictObject({
  status: z.union([z.int().min(400).max(599), z.enum(['connection', 'timeout'])]),
  message: z.string().optional(),
  request_id: z.string().nullable().optional(),
  retry_after_ms: z.number().min(0).nullable().optional(),
});

/** `<status> [message]`, `connection [message]`, `timeout [message]`, or the JSON form with extra fields. */
function parseFailure(payload: string): ScriptedFailure {
  const trimmed = payload.trim();
  if (trimmed.startsWith('{')) {
    const parsed = failureSchema.safeParse(parseJsonObject(trimmed, 'error payload'));
    if (!parsed.success) throw new DirectiveProblem(`bad error: ${describeIssues(parsed.error)}`);
    const { status, message, request_id, retry_after_ms } = parsed.data;
    if (typeof status === 'string')
      return { kind: status, message: message ?? defaultFailureMessage(status) };
    return {
      kind: 'status',
      statusCode: status,
      message: message ?? defaultFailureMessage(status),
      requestId: request_id ?? null,
      retryAfterMs: retry_after_ms ?? null,
    };
  }
  const match = /^(\S+)\s*(.*)$/.exec(trimmed);
  const head = match?.[1]?.toLowerCase() ?? '';
  const message = match?.[2] || undefined;
  if (head === 'connection' || head === 'timeout')
    return { kind: head, message: message ?? defaultFailureMessage(head) };
  const statusCode = /^\d{3}$/.test(head) ? Number(head) : Number.NaN;
  if (!(statusCode >= 400 && statusCode <= 599)) {
    throw new DirectiveProblem(
      `error needs an HTTP status 400-599, 'connection' or 'timeout' first, got '${preview(trimmed)}'`,
    );
  }
  return {
    kind: 'status',
    statusCode,
    message: message ?? defaultFailureMessage(statusCode),
    requestId: null,
    retryAfterMs: null,
  };
}

function defaultFailureMessage(what: number | 'connection' | 'timeout'): string {
  if (what === 'connection') return 'Scripted connection failure.';
  if (what === 'timeout') return 'Scripted request timeout.';
  return `Scripted HTTP ${what} error.`;
}
