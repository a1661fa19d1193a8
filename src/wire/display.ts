import { z } from 'zod';
import type { DisplayBlock } from '../kosong/tool.js';
import { builtOnFirstUse } from '../util/built-on-first-use.js';
import { encoderFor, encodeWith } from './encode.js';
import { type JsonValue, jsonValueSchema } from './json.js';

/**
 * Display blocks: what a UI shows for a tool result or an approval. Kimi CLI knows five kinds; a block
 * of any other kind is kept as `{type, data}` so it survives a round trip through wire.jsonl.
 * Their types are object type aliases (derived from the schemas), each assignable to kosong's open
 * `DisplayBlock`.
 */

/**
 * The known kinds' schemas, built on first use: nothing shows or records a display block before a
 * session's first tool result, and making them at load was part of every start's path to its first
 * model request.
 */
function buildKnownBlockSchemas() {
  const todoStatusSchema = z.enum(['pending', 'in_progress', 'done']);
  return {
    brief: z.object({ type: z.literal('brief'), text: z.string() }),
    diff: z.object({
      type: z.literal('diff'),
      path: z.string(),
      old_text: z.string(),
      new_text: z.string(),
      /** First line number of `old_text` in the file (1-based). */
      old_start: z.number().int().default(1),
      new_start: z.number().int().default(1),
      /** True when the texts are a summary of a change too large to show in full. */
      is_summary: z.boolean().default(false),
    }),
    todo: z.object({
      type: z.literal('todo'),
      items: z.array(z.object({ title: z.string(), status: todoStatusSchema })),
    }),
    shell: z.object({ type: z.literal('shell'), language: z.string(), command: z.string() }),
    background_task: z.object({
      type: z.literal('background_task'),
      task_id: z.string(),
      kind: z.string(),
      status: z.string(),
      description: z.string(),
    }),
  } as const;
}

type KnownBlockSchemas = ReturnType<typeof buildKnownBlockSchemas>;
const knownBlockSchemas = builtOnFirstUse(buildKnownBlockSchemas);
/** The known kinds, without building their schemas. */
const KNOWN_BLOCK_TYPES: ReadonlySet<string> = new Set<keyof KnownBlockSchemas>([
  'brief',
  'diff',
  'todo',
  'shell',
  'background_task',
]);

export type BriefDisplayBlock = z.output<KnownBlockSchemas['brief']>;
export type DiffDisplayBlock = z.output<KnownBlockSchemas['diff']>;
export type TodoDisplayBlock = z.output<KnownBlockSchemas['todo']>;
export type TodoStatus = TodoDisplayBlock['items'][number]['status'];
export type ShellDisplayBlock = z.output<KnownBlockSchemas['shell']>;
export type BackgroundTaskDisplayBlock = z.output<KnownBlockSchemas['background_task']>;

/** A block of a kind this version does not know; `data` holds its other fields. */
export type UnknownDisplayBlock = {
  type: string;
  data: JsonValue;
};

export type WireDisplayBlock =
  | BriefDisplayBlock
  | DiffDisplayBlock
  | TodoDisplayBlock
  | ShellDisplayBlock
  | BackgroundTaskDisplayBlock
  | UnknownDisplayBlock;

type KnownBlockType = keyof KnownBlockSchemas;

function isKnownBlockType(type: string): type is KnownBlockType {
  return KNOWN_BLOCK_TYPES.has(type);
}

/** Unknown kinds: a block already in `{type, data}` form stays as it is, any other is wrapped. */
function unknownBlock(type: string, fields: Record<string, unknown>): UnknownDisplayBlock {
  const { type: _type, ...rest } = fields;
  const keys = Object.keys(rest);
  if (keys.length === 1 && keys[0] === 'data') {
    const data = jsonValueSchema.safeParse(rest.data);
    if (data.success) return { type, data: data.data };
  }
  return { type, data: jsonValueSchema.parse(rest) };
}

/**
 * Validates one display block. A known kind must have its fields; any other kind is kept as
 * `{type, data}`. Throws a ZodError on invalid input. A z.lazy (which parses and encodes as the
 * schema it wraps): the schema is built on first use, as a start shows no block before its first
 * model request.
 */
export const displayBlockSchema: z.ZodType<WireDisplayBlock> = z.lazy(() =>
  z.looseObject({ type: z.string() }).transform((value, ctx): WireDisplayBlock => {
    const type = value.type;
    if (isKnownBlockType(type)) {
      const parsed = knownBlockSchemas()[type].safeParse(value);
      if (parsed.success) return parsed.data;
      for (const issue of parsed.error.issues)
        ctx.addIssue({ ...issue, code: 'custom', message: issue.message });
      return z.NEVER;
    }
    const data = jsonValueSchema.safeParse(value);
    if (!data.success) {
      ctx.addIssue({ code: 'custom', message: `display block \`${type}\` is not JSON data` });
      return z.NEVER;
    }
    return unknownBlock(type, value);
  }),
);

/** Unknown kinds are written as `{type, data}`, whether they came in that form or not. */
function unknownBlockToJSON(block: DisplayBlock): UnknownDisplayBlock | DisplayBlock {
  const { type, ...rest } = block;
  const keys = Object.keys(rest);
  return keys.length === 1 && keys[0] === 'data' ? { type, data: rest.data } : { type, data: rest };
}

/** The JSON of a display block as Kimi CLI writes it: every field of a known kind, defaults filled. */
export function displayBlockToJSON(block: DisplayBlock): Record<string, unknown> {
  return isKnownBlockType(block.type)
    ? (encoderFor(knownBlockSchemas()[block.type])(block) as Record<string, unknown>)
    : unknownBlockToJSON(block);
}

encodeWith(displayBlockSchema, (block) => displayBlockToJSON(block as DisplayBlock));
