import { z } from 'zod';
import type { JSONSchema } from '../../kosong/index.js';

/**
 * The JSON Schema a tool's zod parameters are published as: the input side of the schema (fields with
 * defaults are optional), with no `$schema` and no `title`s, every `$ref` inlined, and nullable types
 * written as `anyOf: [{type}, {type: "null"}]` the way Kimi CLI's tools publish them. Models are
 * trained on schemas of that shape, and some providers reject `$ref` or type arrays.
 */
export function toolParametersSchema(params: z.ZodType): JSONSchema {
  const raw = z.toJSONSchema(params, { io: 'input', unrepresentable: 'any' }) as JSONSchema;
  const defs = { ...asRecord(raw.$defs), ...asRecord(raw.definitions) };
  const root = raw;
  const cleaned = cleanSchema(raw, { root, defs, resolving: new Set() });
  return cleaned;
}

interface Walk {
  root: JSONSchema;
  defs: Record<string, unknown>;
  resolving: Set<string>;
}

/** Keywords whose value is a map of name → subschema: walk the values, keep the keys (a property may be named "title"). */
const SCHEMA_MAPS = new Set(['properties', 'patternProperties', 'dependentSchemas']);
/** Keywords whose value is a subschema or a list of them. */
const SUBSCHEMAS = new Set([
  'items',
  'prefixItems',
  'additionalProperties',
  'unevaluatedProperties',
  'unevaluatedItems',
  'propertyNames',
  'contains',
  'not',
  'if',
  'then',
  'else',
  'anyOf',
  'oneOf',
  'allOf',
]);

function cleanSchema(node: unknown, walk: Walk): JSONSchema {
  if (node === null || typeof node !== 'object' || Array.isArray(node)) return node as JSONSchema;
  const schema = node as JSONSchema;
  if (typeof schema.$ref === 'string') return inlineRef(schema, walk);
  const out: JSONSchema = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === '$schema' || key === 'title' || key === '$defs' || key === 'definitions' || key === '$id')
      continue;
    if (SCHEMA_MAPS.has(key)) {
      const map: Record<string, unknown> = {};
      for (const [name, sub] of Object.entries(asRecord(value))) map[name] = cleanSchema(sub, walk);
      out[key] = map;
    } else if (SUBSCHEMAS.has(key)) {
      out[key] = Array.isArray(value) ? value.map((sub) => cleanSchema(sub, walk)) : cleanSchema(value, walk);
    } else if (isSafeIntegerBound(key, value)) {
      // zod's `.int()` adds ±2^53-1 bounds; they say nothing to a model and Kimi CLI's schemas lack them.
    } else {
      out[key] = value;
    }
  }
  return splitNullableType(out);
}

function isSafeIntegerBound(key: string, value: unknown): boolean {
  return (
    (key === 'maximum' && value === Number.MAX_SAFE_INTEGER) ||
    (key === 'minimum' && value === Number.MIN_SAFE_INTEGER)
  );
}

function inlineRef(schema: JSONSchema, walk: Walk): JSONSchema {
  const ref = schema.$ref as string;
  if (walk.resolving.has(ref)) {
    throw new Error(`Tool parameter schemas cannot be recursive (found a cycle through ${ref})`);
  }
  const target = resolvePointer(ref, walk);
  walk.resolving.add(ref);
  try {
    const { $ref: _ignored, ...siblings } = schema;
    const resolved = cleanSchema(target, walk);
    return Object.keys(siblings).length === 0 ? resolved : { ...resolved, ...cleanSchema(siblings, walk) };
  } finally {
    walk.resolving.delete(ref);
  }
}

function resolvePointer(ref: string, walk: Walk): unknown {
  if (ref === '#') return walk.root;
  const match = /^#\/(\$defs|definitions)\/(.+)$/.exec(ref);
  const name =
    match?.[2] === undefined
      ? undefined
      : decodeURIComponent(match[2].replace(/~1/g, '/').replace(/~0/g, '~'));
  if (name === undefined || !(name in walk.defs))
    throw new Error(`Unresolvable $ref in tool parameter schema: ${ref}`);
  return walk.defs[name];
}

/** `{type: ["integer", "null"], minimum: 1, default: null}` → `{anyOf: [{type: "integer", minimum: 1}, {type: "null"}], default: null}`. */
function splitNullableType(schema: JSONSchema): JSONSchema {
  const type = schema.type;
  if (!Array.isArray(type) || type.length !== 2 || !type.includes('null')) return schema;
  const other = type.find((t) => t !== 'null');
  const { type: _type, default: defaultValue, description, ...constraints } = schema;
  const out: JSONSchema = { anyOf: [{ type: other, ...constraints }, { type: 'null' }] };
  if (description !== undefined) out.description = description;
  if (defaultValue !== undefined) out.default = defaultValue;
  return out;
}

function asRecord(value: unknown): Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
}
