import type { z } from 'zod';
import type { JSONSchema } from '../kosong/index.js';

/**
 * A built-in tool's parameters, declared by a key (the tool's name) and a function that builds
 * their zod schema. Nothing is built at load: `schema()` builds it on the first validation, and the
 * JSON Schema the model is offered comes from the table the bundle carries (published below),
 * so the path to the first model request makes neither the ~30 zod schemas of the built-in tools
 * nor their JSON Schemas (z.toJSONSchema, the costliest part of defining a tool at start).
 *
 * Declared at a module's top level, so that importing the built-in tool modules registers every
 * one of them: scripts/bundle.mjs does that to make the table (src/tools/tool-parameters-table.ts).
 * Only kimi-ts's own tools declare parameters this way (it is not exported to tool authors).
 */
export interface DeclaredParameters<S extends z.ZodType = z.ZodType> {
  readonly key: string;
  /** The zod schema, built on the first call and kept. */
  schema(): S;
}

const declared = new Map<string, DeclaredParameters>();

export function declareParameters<S extends z.ZodType>(key: string, build: () => S): DeclaredParameters<S> {
  if (declared.has(key)) throw new Error(`Tool parameters "${key}" are declared twice`);
  let built: S | undefined;
  const parameters: DeclaredParameters<S> = {
    key,
    schema() {
      built ??= build();
      return built;
    },
  };
  declared.set(key, parameters);
  return parameters;
}

/** Every declaration made so far (by the modules imported so far), by key. */
export function declaredParameters(): ReadonlyMap<string, DeclaredParameters> {
  return declared;
}

export function isDeclaredParameters(value: unknown): value is DeclaredParameters {
  return (
    typeof value === 'object' &&
    value !== null &&
    declared.get((value as { key?: string }).key ?? '') === value
  );
}

/**
 * The JSON Schemas of the declared parameters, made when the bundle was built (scripts/bundle.mjs
 * defines the constant): absent when kimi-ts runs from tsc's output or its sources, where each is
 * converted when first read, as any other tool's.
 */
declare const __kimiPublishedToolParameters: Readonly<Record<string, JSONSchema>> | undefined;

let published: Readonly<Record<string, JSONSchema>> | undefined =
  typeof __kimiPublishedToolParameters === 'undefined' ? undefined : __kimiPublishedToolParameters;

/** The JSON Schema published for a declaration's key, if the build made one. */
export function publishedParameters(key: string): JSONSchema | undefined {
  return published !== undefined && Object.hasOwn(published, key) ? published[key] : undefined;
}

/** For tests: run as the bundle does, with this table (undefined: as from the sources). */
export function usePublishedParametersForTest(table: Readonly<Record<string, JSONSchema>> | undefined): void {
  published = table;
}
