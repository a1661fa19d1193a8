import { z } from 'zod';
import { encodeWith } from './encode.js';

/** A JSON value, as carried in free-form wire fields (notification payloads, unknown display blocks). */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

/** Free JSON is written as it is. */
export const jsonValueSchema: z.ZodType<JsonValue> = encodeWith(z.json(), (value) => value);

/** Turns zod issues into one line per bad field, e.g. "field `payload.n`: expected int". */
export function describeIssues(error: z.ZodError): string {
  return error.issues
    .map((issue) => {
      const path = issue.path.map(String).join('.');
      return path ? `field \`${path}\`: ${issue.message}` : issue.message;
    })
    .join('; ');
}
