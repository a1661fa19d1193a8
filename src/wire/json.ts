import { z } from 'zod';

/** A JSON value, as carried in free-form wire fields (notification payloads, unknown display blocks). */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

export const jsonValueSchema: z.ZodType<JsonValue> = z.json();

/** Turns zod issues into one line per bad field, e.g. "field `payload.n`: expected int". */
export function describeIssues(error: z.ZodError): string {
  return error.issues
    .map((issue) => {
      const path = issue.path.map(String).join('.');
      return path ? `field \`${path}\`: ${issue.message}` : issue.message;
    })
    .join('; ');
}
