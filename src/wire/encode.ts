import { z } from 'zod';

/**
 * The JSON encoding of a wire payload, derived from its zod schema: the shape Kimi CLI's pydantic
 * models write, where every field of an object is present in the schema's key order, an absent
 * optional field is `null` and an absent field with a default gets the default. A transformed schema
 * is encoded by its input side (the JSON shape it parses), a preprocessed one by its output side.
 *
 * zod's own codecs (`z.encode`) were measured and do not fit: they validate every value on the way
 * out (several times slower on the streaming path) and leave absent optional fields absent, so each
 * field would need a codec of its own. The encoder is compiled once per schema into a tree of functions.
 */

export type Encoder = (value: unknown) => unknown;

const custom = new WeakMap<z.core.$ZodType, Encoder>();
const compiled = new WeakMap<z.core.$ZodType, Encoder>();

/** Gives `schema` an encoding of its own (a value the schema walk cannot know, e.g. an open union). */
export function encodeWith<S extends z.core.$ZodType>(schema: S, encoder: Encoder): S {
  // Encoders compiled earlier would keep the schema walk's encoding: register before first use.
  if (compiled.has(schema)) throw new Error('encodeWith: the schema was already encoded by the schema walk');
  custom.set(schema, encoder);
  return schema;
}

/**
 * `base` with kimi-ts extension fields that are written only when set: a message without them
 * encodes to exactly the bytes Kimi CLI writes (no new `null` fields for its programs to meet).
 */
export function withQuietExtensions<S extends z.ZodRawShape, E extends z.ZodRawShape>(
  base: z.ZodObject<S>,
  extensions: E,
) {
  const keys = Object.keys(extensions);
  // Compiled on the first message (encoderFor keeps them), not when the schema is declared.
  let encoders: Encoder[] | undefined;
  return encodeWith(base.extend(extensions), (value) => {
    encoders ??= keys.map((key) => encoderFor(extensions[key] as z.core.$ZodType));
    const extensionEncoders = encoders;
    const encoded = encoderFor(base)(value);
    if (value === null || typeof value !== 'object' || encoded === null || typeof encoded !== 'object')
      return encoded;
    const source = value as Record<string, unknown>;
    const out = encoded as Record<string, unknown>;
    keys.forEach((key, i) => {
      if (source[key] != null) out[key] = (extensionEncoders[i] as Encoder)(source[key]);
    });
    return out;
  });
}

/** The encoder of `schema`, compiled on first use. */
export function encoderFor(schema: z.core.$ZodType): Encoder {
  let encoder = compiled.get(schema);
  if (!encoder) {
    encoder = compile(schema);
    compiled.set(schema, encoder);
  }
  return encoder;
}

const identity: Encoder = (value) => value;
/** An optional field of a value written as it is: the common case, inlined by objectEncoder. */
const valueOrNull: Encoder = (value) => value ?? null;

function compile(schema: z.core.$ZodType): Encoder {
  const own = custom.get(schema);
  if (own) return own;
  if (schema instanceof z.ZodObject) return objectEncoder(schema);
  if (schema instanceof z.ZodArray) {
    const element = encoderFor(schema.element);
    return (value) => (Array.isArray(value) ? value.map(element) : value);
  }
  if (schema instanceof z.ZodOptional || schema instanceof z.ZodNullable) {
    const inner = encoderFor(schema.unwrap());
    return inner === identity ? valueOrNull : (value) => (value == null ? null : inner(value));
  }
  if (schema instanceof z.ZodDefault) {
    const inner = encoderFor(schema.unwrap());
    const def = schema.def;
    return (value) => inner(value == null ? def.defaultValue : value);
  }
  if (schema instanceof z.ZodPipe) {
    const side: z.core.$ZodType = schema.in instanceof z.ZodTransform ? schema.out : schema.in;
    return encoderFor(side);
  }
  if (schema instanceof z.ZodDiscriminatedUnion) return discriminatedUnionEncoder(schema);
  if (schema instanceof z.ZodUnion) return unionEncoder(schema.options);
  if (schema instanceof z.ZodLazy) {
    let inner: Encoder | undefined;
    return (value) => {
      inner ??= encoderFor(schema.unwrap());
      return inner(value);
    };
  }
  // Strings, numbers, booleans, literals, enums, records and free JSON are written as they are.
  return identity;
}

/**
 * Objects are encoded by a function generated for their keys, which builds the output as one object
 * literal: JSON.stringify is about twice as fast on such objects as on objects grown key by key, and
 * this runs for every streamed fragment (zod compiles its object parsers the same way). Keys are
 * written as JSON string literals, so no key can break out of the generated code.
 */
function objectEncoder(schema: z.ZodObject): Encoder {
  const entries = Object.entries(schema.shape as Record<string, z.core.$ZodType>);
  const encoders = entries.map(([, field]) => encoderFor(field));
  const fields = entries.map(([key], i) => {
    const read = `s[${JSON.stringify(key)}]`;
    const encoder = encoders[i];
    const value =
      encoder === identity ? read : encoder === valueOrNull ? `(${read} ?? null)` : `e[${i}](${read})`;
    return `${JSON.stringify(key)}: ${value}`;
  });
  const body = `return (s) => (s === null || typeof s !== 'object' ? s : { ${fields.join(', ')} });`;
  try {
    return new Function('e', body)(encoders) as Encoder;
  } catch {
    // Code generation is disabled (--disallow-code-generation-from-strings): the same, key by key.
    return loopObjectEncoder(
      entries.map(([key]) => key),
      encoders,
    );
  }
}

function loopObjectEncoder(keys: readonly string[], encoders: readonly Encoder[]): Encoder {
  return (value) => {
    if (value === null || typeof value !== 'object') return value;
    const source = value as Record<string, unknown>;
    const out: Record<string, unknown> = {};
    keys.forEach((key, i) => {
      out[key] = (encoders[i] as Encoder)(source[key]);
    });
    return out;
  };
}

function discriminatedUnionEncoder(schema: z.ZodDiscriminatedUnion): Encoder {
  const key = schema.def.discriminator;
  const byTag = new Map<unknown, Encoder>();
  for (const option of schema.options as readonly z.core.$ZodType[]) {
    const tag =
      option instanceof z.ZodObject ? (option.shape as Record<string, z.core.$ZodType>)[key] : undefined;
    if (tag instanceof z.ZodLiteral) for (const literal of tag.values) byTag.set(literal, encoderFor(option));
  }
  return (value) => {
    if (value === null || typeof value !== 'object') return value;
    const encode = byTag.get((value as Record<string, unknown>)[key]);
    return encode ? encode(value) : value;
  };
}

type JsonKind = 'string' | 'number' | 'boolean' | 'array' | 'object' | 'null' | 'any';

function jsonKindOf(value: unknown): JsonKind {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  const kind = typeof value;
  return kind === 'string' || kind === 'number' || kind === 'boolean' || kind === 'object' ? kind : 'any';
}

/** The kind of JSON value a schema accepts, to pick the option of a plain union a value belongs to. */
function schemaKind(schema: z.core.$ZodType): JsonKind {
  if (schema instanceof z.ZodString || schema instanceof z.ZodEnum) return 'string';
  if (schema instanceof z.ZodNumber) return 'number';
  if (schema instanceof z.ZodBoolean) return 'boolean';
  if (schema instanceof z.ZodNull) return 'null';
  if (schema instanceof z.ZodArray) return 'array';
  if (schema instanceof z.ZodObject || schema instanceof z.ZodRecord) return 'object';
  if (schema instanceof z.ZodDiscriminatedUnion) return 'object';
  if (schema instanceof z.ZodLiteral) return jsonKindOf(schema.values.values().next().value);
  if (schema instanceof z.ZodPipe)
    return schemaKind(schema.in instanceof z.ZodTransform ? schema.out : schema.in);
  return 'any';
}

function unionEncoder(options: readonly z.core.$ZodType[]): Encoder {
  const byKind = options.map((option) => ({ kind: schemaKind(option), encode: encoderFor(option) }));
  return (value) => {
    const kind = jsonKindOf(value);
    for (const option of byKind)
      if (option.kind === kind || option.kind === 'any') return option.encode(value);
    return value;
  };
}
