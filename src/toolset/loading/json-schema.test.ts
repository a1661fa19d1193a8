import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { toolParametersSchema } from './json-schema.js';

describe('toolParametersSchema', () => {
  it('publishes the input side: defaults optional, no $schema, no titles, nullable as anyOf with null', () => {
    const edit = z
      .object({ old: z.string(), new: z.string(), replace_all: z.boolean().default(false) })
      .meta({ title: 'Edit' });
    const schema = z
      .object({
        title: z.string().describe('A parameter that happens to be called title'),
        edit: z.union([edit, z.array(edit)]),
        timeout: z.number().int().min(1).max(300).default(60),
        description: z.string().nullable().default(null).describe('Optional note'),
        '-B': z.number().int().optional(),
      })
      .meta({ title: 'Params' });
    const edited = {
      type: 'object',
      properties: {
        old: { type: 'string' },
        new: { type: 'string' },
        replace_all: { type: 'boolean', default: false },
      },
      required: ['old', 'new'],
    };
    expect(toolParametersSchema(schema)).toEqual({
      type: 'object',
      properties: {
        title: { type: 'string', description: 'A parameter that happens to be called title' },
        edit: { anyOf: [edited, { type: 'array', items: edited }] },
        timeout: { type: 'integer', minimum: 1, maximum: 300, default: 60 },
        description: {
          anyOf: [{ type: 'string' }, { type: 'null' }],
          description: 'Optional note',
          default: null,
        },
        '-B': { type: 'integer' },
      },
      required: ['title', 'edit'],
    });
  });

  it('inlines $refs of schemas registered with an id', () => {
    const item = z
      .object({ title: z.string(), status: z.enum(['pending', 'done']) })
      .meta({ id: 'TodoItem' });
    const out = toolParametersSchema(z.object({ todos: z.array(item), current: item.optional() }));
    expect(JSON.stringify(out)).not.toContain('$ref');
    expect(JSON.stringify(out)).not.toContain('$defs');
    expect(out).toMatchObject({
      properties: {
        todos: {
          type: 'array',
          items: { type: 'object', properties: { status: { enum: ['pending', 'done'] } } },
        },
        current: { type: 'object' },
      },
    });
  });

  it('refuses recursive schemas with a clear error', () => {
    type Node = { children: Node[] };
    const node: z.ZodType<Node> = z.lazy(() => z.object({ children: z.array(node) }));
    expect(() => toolParametersSchema(z.object({ root: node }))).toThrow(/recursive/);
  });
});
