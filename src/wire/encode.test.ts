import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import { encoderFor, encodeWith, withQuietExtensions } from './encode.js';
import { approvalRequestSchema } from './request-payloads.js';

const encode = (schema: z.ZodType, value: unknown) => JSON.stringify(encoderFor(schema)(value));

describe('the JSON encoding derived from a schema', () => {
  test.each([
    [
      'every field in schema order',
      z.object({ b: z.string(), a: z.number() }),
      { a: 1, b: 'x' },
      '{"b":"x","a":1}',
    ],
    [
      'absent optional fields as null',
      z.object({ a: z.string().nullish(), b: z.number().optional() }),
      {},
      '{"a":null,"b":null}',
    ],
    [
      'defaults filled',
      z.object({ n: z.number().default(1), l: z.array(z.string()).default([]) }),
      {},
      '{"n":1,"l":[]}',
    ],
    ['unknown fields dropped', z.object({ a: z.string() }), { a: 'x', secret: 'y' }, '{"a":"x"}'],
    [
      'nested objects and arrays',
      z.object({ xs: z.array(z.object({ v: z.string().nullish() })) }),
      { xs: [{}, { v: 'a' }] },
      '{"xs":[{"v":null},{"v":"a"}]}',
    ],
    [
      'a transform by its input side',
      z.object({ a: z.string().nullish() }).transform((raw) => ({ kind: 'x', ...raw })),
      { kind: 'x' },
      '{"a":null}',
    ],
    [
      'a preprocess by its output side',
      z.preprocess((raw) => raw, z.object({ a: z.string().nullish() })),
      {},
      '{"a":null}',
    ],
    [
      'a union by the kind of the value',
      z.union([z.string(), z.array(z.object({ t: z.string().nullish() }))]),
      [{}],
      '[{"t":null}]',
    ],
    [
      'keys that need quoting',
      z.object({ 'a"b': z.string(), "c'\n": z.number().nullish() }),
      { 'a"b': 'x' },
      '{"a\\"b":"x","c\'\\n":null}',
    ],
  ])('%s', (_name, schema, value, json) => {
    expect(encode(schema, value)).toBe(json);
  });

  test('a discriminated union by its tag', () => {
    const schema = z.discriminatedUnion('type', [
      z.object({ type: z.literal('a'), x: z.string().nullish() }),
      z.object({ type: z.literal('b'), y: z.number().default(0) }),
    ]);
    expect(encode(schema, { type: 'b' })).toBe('{"type":"b","y":0}');
    expect(encode(schema, { type: 'a' })).toBe('{"type":"a","x":null}');
  });

  test('a schema with an encoding of its own, registered before first use', () => {
    const open = encodeWith(z.looseObject({ kind: z.string() }), (value) => ({ wrapped: value }));
    expect(encode(z.object({ item: open }), { item: { kind: 'k', extra: 1 } })).toBe(
      '{"item":{"wrapped":{"kind":"k","extra":1}}}',
    );
    const walked = z.object({ a: z.string() });
    encoderFor(walked);
    expect(() => encodeWith(walked, (value) => value)).toThrow(/already encoded/);
  });
});

describe('quiet extensions (kimi-ts fields Kimi CLI programs never meet unless set)', () => {
  test('are written only when set, after the base fields', () => {
    const schema = withQuietExtensions(z.object({ a: z.string(), b: z.string().nullish() }), {
      ext: z.string().nullish(),
    });
    expect(encode(schema, { a: 'x' })).toBe('{"a":"x","b":null}');
    expect(encode(schema, { a: 'x', ext: null })).toBe('{"a":"x","b":null}');
    expect(encode(schema, { a: 'x', ext: 'p' })).toBe('{"a":"x","b":null,"ext":"p"}');
    expect(schema.parse({ a: 'x', ext: 'p' })).toEqual({ a: 'x', ext: 'p' });
  });

  test("an approval request without the asking agent's parent call encodes as Kimi CLI's", () => {
    const base = { id: 'r', tool_call_id: 'c', sender: 'Shell', action: 'run command', description: 'd' };
    expect(encode(approvalRequestSchema, base)).not.toContain('parent_tool_call_id');
    expect(
      JSON.parse(encode(approvalRequestSchema, { ...base, parent_tool_call_id: 'call-9' })),
    ).toMatchObject({
      parent_tool_call_id: 'call-9',
    });
  });
});
