import type { z } from 'zod';
import { type ConfigProblem, formatKeyPath } from './config-error.js';

/**
 * Turns zod issues into config problems in the file's own words ("a table", "must be at least 1").
 * Only types and bounds are described, never the values found, so a misplaced secret is not echoed.
 */
export function describeIssues(issues: readonly z.core.$ZodIssue[], input: unknown): ConfigProblem[] {
  return issues.map((issue) => ({
    keyPath: formatKeyPath(issue.path),
    problem: describeIssue(issue, valueAt(input, issue.path)),
  }));
}

function describeIssue(issue: z.core.$ZodIssue, found: unknown): string {
  switch (issue.code) {
    case 'invalid_type':
      if (found === undefined) return `is required (${expectedName(issue.expected)})`;
      return `must be ${expectedName(issue.expected)}, found ${kindOf(found)}`;
    case 'too_small':
      return describeBound(issue.origin, 'min', Number(issue.minimum), issue.inclusive ?? true);
    case 'too_big':
      return describeBound(issue.origin, 'max', Number(issue.maximum), issue.inclusive ?? true);
    case 'invalid_value': {
      const choices = `one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}`;
      return found === undefined ? `is required (${choices})` : `must be ${choices}`;
    }
    default:
      return issue.message;
  }
}

function describeBound(origin: string, side: 'min' | 'max', bound: number, inclusive: boolean): string {
  if (origin === 'string' || origin === 'array') {
    const unit = origin === 'string' ? 'characters' : 'items';
    if (side === 'min' && bound === 1 && inclusive) return 'must not be empty';
    return side === 'min' ? `must have at least ${bound} ${unit}` : `must have at most ${bound} ${unit}`;
  }
  if (side === 'min') return inclusive ? `must be at least ${bound}` : `must be greater than ${bound}`;
  return inclusive ? `must be at most ${bound}` : `must be less than ${bound}`;
}

function expectedName(expected: string): string {
  switch (expected) {
    case 'int':
      return 'a whole number';
    case 'number':
      return 'a number';
    case 'string':
      return 'a string';
    case 'boolean':
      return 'true or false';
    case 'object':
    case 'record':
      return 'a table';
    case 'array':
      return 'a list';
    default:
      return expected;
  }
}

function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  switch (typeof value) {
    case 'number':
      return Number.isInteger(value) ? 'a whole number' : 'a fractional number';
    case 'string':
      return 'a string';
    case 'boolean':
      return 'a boolean';
    case 'object':
      return 'a table';
    default:
      return typeof value;
  }
}

function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let node = root;
  for (const segment of path) {
    if (typeof node !== 'object' || node === null) return undefined;
    node = (node as Record<PropertyKey, unknown>)[segment];
  }
  return node;
}
