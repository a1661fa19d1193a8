import type { z } from 'zod';

/** A directive's payload is wrong; the parser adds the line number. */
export class DirectiveProblem extends Error {}

/** Removes one pair of matching outer quotes (`"…"` or `'…'`), if present. */
export function stripQuotes(value: string): string {
  if (value.length >= 2) {
    const first = value[0];
    if ((first === '"' || first === "'") && value[value.length - 1] === first) return value.slice(1, -1);
  }
  return value;
}

/** True for the words a script uses to mean "no value". */
export function isNullWord(value: string): boolean {
  const lowered = value.toLowerCase();
  return value === '' || lowered === 'null' || lowered === 'none';
}

/** Parses a payload that must be a JSON object; says what is wrong otherwise. */
export function parseJsonObject(payload: string, what: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(payload);
  } catch (error) {
    throw new DirectiveProblem(`${what} is not valid JSON (${(error as Error).message})`);
  }
  if (!isPlainObject(value)) throw new DirectiveProblem(`${what} must be a JSON object`);
  return value;
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Reads an object payload written either as JSON (`{"a": 1}`) or as `key=value` tokens separated by
 * spaces or commas (`a=1, b=x`). Token values are strings: quoted ones lose their quotes (double
 * quotes decode JSON escapes), `null`/`none`/empty become null, and with `numbers` set, numeric
 * values become numbers. Dotted keys (`function.name`) build nested objects.
 */
export function parseMapping(
  payload: string,
  what: string,
  options: { numbers?: boolean } = {},
): Record<string, unknown> {
  const trimmed = payload.trim();
  if (trimmed.startsWith('{')) return parseJsonObject(trimmed, `${what} payload`);
  const tokens = splitTokens(trimmed);
  if (tokens.length === 0) throw new DirectiveProblem(`${what} needs a JSON object or key=value pairs`);
  const mapping: Record<string, unknown> = {};
  for (const token of tokens) {
    const eq = token.indexOf('=');
    const key = eq > 0 ? token.slice(0, eq).trim() : '';
    if (key === '') throw new DirectiveProblem(`expected key=value in ${what}, got '${token}'`);
    setPath(mapping, key, tokenValue(token.slice(eq + 1).trim(), options.numbers ?? false));
  }
  return mapping;
}

function tokenValue(raw: string, numbers: boolean): unknown {
  if (raw.length >= 2 && raw[0] === '"' && raw[raw.length - 1] === '"') {
    try {
      return JSON.parse(raw) as string;
    } catch {
      return raw.slice(1, -1);
    }
  }
  if (raw.length >= 2 && raw[0] === "'" && raw[raw.length - 1] === "'") return raw.slice(1, -1);
  if (isNullWord(raw)) return null;
  if (numbers && /^-?\d+(\.\d+)?$/.test(raw)) return Number(raw);
  return raw;
}

function setPath(target: Record<string, unknown>, dotted: string, value: unknown): void {
  const keys = dotted.split('.');
  let node = target;
  for (const key of keys.slice(0, -1)) {
    const child = node[key];
    if (isPlainObject(child)) node = child;
    else {
      const fresh: Record<string, unknown> = {};
      node[key] = fresh;
      node = fresh;
    }
  }
  node[keys[keys.length - 1] as string] = value;
}

/**
 * Splits `a=1, b="x y" c={"k": [1, 2]}` into tokens at spaces and commas, except inside quotes
 * (which open only at the start of a value) and brackets, so JSON-ish values survive whole.
 */
function splitTokens(text: string): string[] {
  const tokens: string[] = [];
  let current = '';
  let quote: string | null = null;
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i] as string;
    if (quote !== null) {
      current += ch;
      if (ch === '\\' && quote === '"' && i + 1 < text.length) current += text[++i];
      else if (ch === quote) quote = null;
      continue;
    }
    const prev = current[current.length - 1];
    if ((ch === '"' || ch === "'") && (current === '' || prev === '=')) quote = ch;
    else if (ch === '{' || ch === '[') depth++;
    else if ((ch === '}' || ch === ']') && depth > 0) depth--;
    else if (depth === 0 && (ch === ',' || /\s/.test(ch))) {
      if (current !== '') tokens.push(current);
      current = '';
      continue;
    }
    current += ch;
  }
  if (quote !== null) throw new DirectiveProblem(`unterminated ${quote} quote`);
  if (current !== '') tokens.push(current);
  return tokens;
}

/** One line out of zod's issues: `id: expected string; name: required`. */
export function describeIssues(error: z.ZodError): string {
  return error.issues
    .map((issue) => (issue.path.length > 0 ? `${issue.path.join('.')}: ${issue.message}` : issue.message))
    .join('; ');
}
