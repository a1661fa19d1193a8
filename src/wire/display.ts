import { z } from 'zod';
import type { DisplayBlock } from '../kosong/tool.js';
import { type JsonValue, jsonValueSchema } from './json.js';

/**
 * Display blocks: what a UI shows for a tool result or an approval. Kimi CLI knows five kinds; a block
 * of any other kind is kept as `{type, data}` so it survives a round trip through wire.jsonl.
 * They are type aliases rather than interfaces so that each is assignable to kosong's open `DisplayBlock`.
 */

export type BriefDisplayBlock = {
  type: 'brief';
  text: string;
};

export type DiffDisplayBlock = {
  type: 'diff';
  path: string;
  old_text: string;
  new_text: string;
  /** First line number of `old_text` in the file (1-based). */
  old_start: number;
  new_start: number;
  /** True when the texts are a summary of a change too large to show in full. */
  is_summary: boolean;
};

export type TodoStatus = 'pending' | 'in_progress' | 'done';

export type TodoDisplayBlock = {
  type: 'todo';
  items: { title: string; status: TodoStatus }[];
};

export type ShellDisplayBlock = {
  type: 'shell';
  language: string;
  command: string;
};

export type BackgroundTaskDisplayBlock = {
  type: 'background_task';
  task_id: string;
  kind: string;
  status: string;
  description: string;
};

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

const knownBlockSchemas = {
  brief: z.object({ type: z.literal('brief'), text: z.string() }),
  diff: z.object({
    type: z.literal('diff'),
    path: z.string(),
    old_text: z.string(),
    new_text: z.string(),
    old_start: z.number().int().default(1),
    new_start: z.number().int().default(1),
    is_summary: z.boolean().default(false),
  }),
  todo: z.object({
    type: z.literal('todo'),
    items: z.array(z.object({ title: z.string(), status: z.enum(['pending', 'in_progress', 'done']) })),
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

type KnownBlockType = keyof typeof knownBlockSchemas;

function isKnownBlockType(type: string): type is KnownBlockType {
  return Object.hasOwn(knownBlockSchemas, type);
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
 * `{type, data}`. Throws a ZodError on invalid input.
 */
export const displayBlockSchema: z.ZodType<WireDisplayBlock> = z
  .looseObject({ type: z.string() })
  .transform((value, ctx): WireDisplayBlock => {
    const type = value.type;
    if (isKnownBlockType(type)) {
      const parsed = knownBlockSchemas[type].safeParse(value);
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
  });

/** The JSON of a display block as Kimi CLI writes it: every field of a known kind, defaults filled. */
export function displayBlockToJSON(block: DisplayBlock): Record<string, unknown> {
  switch (block.type) {
    case 'brief':
      return { type: 'brief', text: block.text };
    case 'diff':
      return {
        type: 'diff',
        path: block.path,
        old_text: block.old_text,
        new_text: block.new_text,
        old_start: block.old_start ?? 1,
        new_start: block.new_start ?? 1,
        is_summary: block.is_summary ?? false,
      };
    case 'todo':
      return {
        type: 'todo',
        items: (block.items as TodoDisplayBlock['items']).map(({ title, status }) => ({ title, status })),
      };
    case 'shell':
      return { type: 'shell', language: block.language, command: block.command };
    case 'background_task':
      return {
        type: 'background_task',
        task_id: block.task_id,
        kind: block.kind,
        status: block.status,
        description: block.description,
      };
    default: {
      const { type, ...rest } = block;
      const keys = Object.keys(rest);
      return keys.length === 1 && keys[0] === 'data' ? { type, data: rest.data } : { type, data: rest };
    }
  }
}
