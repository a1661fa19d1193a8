import type { JSONSchema } from '../kosong/index.js';
import { declaredParameters } from '../toolset/declared-parameters.js';
import { toolParametersSchema } from '../toolset/loading/json-schema.js';
import { BUILTIN_TOOL_MODULES } from './builtin-modules.js';

/**
 * The JSON Schemas of the built-in tools' declared parameters, by key, as the model is offered them
 * (toolParametersSchema, the conversion a tool otherwise makes when its parameters are first read).
 * scripts/bundle.mjs builds the bundle with this table, so a start reads the schemas instead of
 * making them; the table is made from the very sources it bundles, so the two cannot differ.
 * Passed through JSON, as the bundle carries it.
 */
export async function toolParametersTable(): Promise<Record<string, JSONSchema>> {
  // Importing each built-in tool module declares its parameters (at the module's top level).
  await Promise.all(Object.values(BUILTIN_TOOL_MODULES).map((load) => load()));
  const table: Record<string, JSONSchema> = {};
  for (const [key, declared] of declaredParameters()) table[key] = toolParametersSchema(declared.schema());
  return JSON.parse(JSON.stringify(table)) as Record<string, JSONSchema>;
}
