import { z } from 'zod';
import { TOOL_EFFECTS } from '../tool-definition.js';

/**
 * What the loader takes for a tool and for a tool factory. A start checks a few dozen exports on
 * the path to its first model request, so each is checked by hand first; the zod schemas, built
 * on first use, answer only for what the hand check does not take (and word why it is no tool).
 * The hand checks never take what the schemas refuse (tool-shapes.test.ts holds them to it).
 */
function buildToolShapes() {
  const isFunction = z.custom<(...args: never[]) => unknown>((value) => typeof value === 'function');
  const toolShape = z.looseObject({
    name: z.string().min(1),
    description: z.string(),
    parameters: z.record(z.string(), z.unknown()),
    effect: z.enum(TOOL_EFFECTS),
    parse: isFunction,
    call: isFunction,
  });
  const factoryShape = z.looseObject({ dependencies: z.array(z.string()), create: isFunction });
  return { toolShape, factoryShape };
}

let shapes: ReturnType<typeof buildToolShapes> | undefined;
/** The schemas, built once. */
export const toolShapes = (): ReturnType<typeof buildToolShapes> => (shapes ??= buildToolShapes());

/**
 * The checks run a few dozen times per start: zod's JIT would compile a parser for each schema
 * (new Function, ~1 ms together), which that many parses do not pay back.
 */
const ONE_SHOT = { jitless: true } as const;

/** Whether `value` has a tool's shape (name, description, parameters, effect, parse, call). */
export function hasToolShape(value: unknown): boolean {
  return isPlainlyTool(value) || toolShapes().toolShape.safeParse(value, ONE_SHOT).success;
}

/** Whether `value` is a factory (`{ dependencies: string[], create }`). */
export function hasFactoryShape(value: unknown): boolean {
  return isPlainlyFactory(value) || toolShapes().factoryShape.safeParse(value, ONE_SHOT).success;
}

/** Why `value` is not a tool, in zod's words (for a value hasToolShape refused). */
export function whyNotTool(value: unknown): string {
  const shape = toolShapes().toolShape.safeParse(value, ONE_SHOT);
  return shape.success ? 'no tool' : z.prettifyError(shape.error);
}

type Fields = Record<string, unknown>;

/** An object as zod's object schemas take one: not null, not an array. */
function isObject(value: unknown): value is Fields {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function isPlainlyTool(value: unknown): boolean {
  if (!isObject(value)) return false;
  const { name, description, parameters, effect, parse, call } = value;
  return (
    typeof name === 'string' &&
    name.length > 0 &&
    typeof description === 'string' &&
    isPlainRecord(parameters) &&
    typeof effect === 'string' &&
    (TOOL_EFFECTS as readonly string[]).includes(effect) &&
    typeof parse === 'function' &&
    typeof call === 'function'
  );
}

export function isPlainlyFactory(value: unknown): boolean {
  if (!isObject(value)) return false;
  const { dependencies, create } = value;
  if (!Array.isArray(dependencies) || typeof create !== 'function') return false;
  // By index, as zod reads an array: a hole is an item that is not a string.
  for (let i = 0; i < dependencies.length; i++) if (typeof dependencies[i] !== 'string') return false;
  return true;
}

/** A plain object with string keys only (a JSON Schema as tools write it). */
function isPlainRecord(value: unknown): boolean {
  if (!isObject(value)) return false;
  const prototype = Object.getPrototypeOf(value);
  return (
    (prototype === Object.prototype || prototype === null) &&
    !Object.hasOwn(value, 'constructor') &&
    Object.getOwnPropertySymbols(value).length === 0
  );
}
