import { z } from 'zod';

/**
 * The parts of a streamed Chat Completions chunk that we read. Compatible servers differ in what
 * they leave out or send as `null`, so everything is optional. Unknown fields are dropped, but in the
 * delta, where they pass through: the reasoning field's name is configurable, so it is read from the
 * loose delta. (Passing them through everywhere copied every field of every chunk — `object`,
 * `created`, `model`, … — a third of the chunk's parse.)
 *
 * Built on the first chunk, not at load: nothing parses a chunk before the first request has gone
 * out, and making these zod schemas (some seventy nodes) was part of the time to that request.
 */
function buildSchemas() {
  const toolCallDelta = z.object({
    index: z.number().int().nullish(),
    id: z.string().nullish(),
    type: z.string().nullish(),
    function: z
      .object({
        name: z.string().nullish(),
        arguments: z.string().nullish(),
      })
      .nullish(),
  });

  const usage = z.object({
    prompt_tokens: z.number().nullish(),
    completion_tokens: z.number().nullish(),
    prompt_tokens_details: z.object({ cached_tokens: z.number().nullish() }).nullish(),
    /** Kimi reports cache hits here rather than in `prompt_tokens_details`. */
    cached_tokens: z.number().nullish(),
  });

  const choice = z.object({
    index: z.number().nullish(),
    delta: z
      .looseObject({
        content: z.string().nullish(),
        tool_calls: z.array(toolCallDelta).nullish(),
      })
      .nullish(),
    finish_reason: z.string().nullish(),
    /** Kimi puts the usage of a stream into its last choice. */
    usage: usage.nullish(),
  });

  const chunk = z.object({
    id: z.string().nullish(),
    choices: z.array(choice).nullish(),
    usage: usage.nullish(),
  });
  return { toolCallDelta, usage, choice, chunk };
}

type Schemas = ReturnType<typeof buildSchemas>;
let schemas: Schemas | undefined;

/** The schema of one streamed chunk (built on first use). */
export function chatChunkSchema(): Schemas['chunk'] {
  schemas ??= buildSchemas();
  return schemas.chunk;
}

export type ChatChunk = z.infer<Schemas['chunk']>;

/**
 * The chunk as it came, when it is plainly of the schema's shape: every field the schema names is
 * absent, `null` or of its type. Checked by hand, for zod's parse of each chunk was ~50 µs, a tenth
 * of a millisecond per step. This accepts a subset of what the schema does (anything else, the
 * malformed included, goes to the schema, which decides and words the error), and what it accepts
 * reads the same: the fields left unchecked are fields nobody reads.
 */
export function plainChatChunk(raw: unknown): ChatChunk | null {
  if (!isRecord(raw) || !isNullishString(raw.id) || !isNullishUsage(raw.usage)) return null;
  const choices = raw.choices;
  if (choices !== undefined && choices !== null) {
    if (!Array.isArray(choices)) return null;
    for (const choice of choices) if (!isPlainChoice(choice)) return null;
  }
  return raw as ChatChunk;
}

function isPlainChoice(choice: unknown): boolean {
  if (!isRecord(choice)) return false;
  if (!isNullishNumber(choice.index) || !isNullishString(choice.finish_reason)) return false;
  if (!isNullishUsage(choice.usage)) return false;
  const delta = choice.delta;
  if (delta === undefined || delta === null) return true;
  if (!isRecord(delta) || !isNullishString(delta.content)) return false;
  const calls = delta.tool_calls;
  if (calls === undefined || calls === null) return true;
  if (!Array.isArray(calls)) return false;
  for (const call of calls) if (!isPlainToolCallDelta(call)) return false;
  return true;
}

function isPlainToolCallDelta(call: unknown): boolean {
  if (!isRecord(call)) return false;
  const index = call.index;
  if (index !== undefined && index !== null && !Number.isSafeInteger(index)) return false;
  if (!isNullishString(call.id) || !isNullishString(call.type)) return false;
  const fn = call.function;
  if (fn === undefined || fn === null) return true;
  return isRecord(fn) && isNullishString(fn.name) && isNullishString(fn.arguments);
}

function isNullishUsage(usage: unknown): boolean {
  if (usage === undefined || usage === null) return true;
  if (!isRecord(usage)) return false;
  if (!isNullishNumber(usage.prompt_tokens) || !isNullishNumber(usage.completion_tokens)) return false;
  if (!isNullishNumber(usage.cached_tokens)) return false;
  const details = usage.prompt_tokens_details;
  if (details === undefined || details === null) return true;
  return isRecord(details) && isNullishNumber(details.cached_tokens);
}

/** A plain object (what JSON.parse makes of `{…}`): not an array, not a class instance. */
function isRecord(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

function isNullishString(value: unknown): boolean {
  return value === undefined || value === null || typeof value === 'string';
}

function isNullishNumber(value: unknown): boolean {
  return value === undefined || value === null || (typeof value === 'number' && Number.isFinite(value));
}
export type ChatChoice = z.infer<Schemas['choice']>;
export type ToolCallDelta = z.infer<Schemas['toolCallDelta']>;
export type ChatUsage = z.infer<Schemas['usage']>;
