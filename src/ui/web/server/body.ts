import type { Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { z } from 'zod';
import { describeIssues } from '../../../wire/json.js';
import { jsonError } from '../../http/hono-access.js';

/** The largest JSON body the REST routes read. */
export const MAX_BODY_BYTES = 64 * 1024;

export const limitBody = bodyLimit({
  maxSize: MAX_BODY_BYTES,
  onError: (c) =>
    jsonError(c, 413, 'body_too_large', `The request body is larger than ${MAX_BODY_BYTES} bytes.`),
});

/** A failed request, answered as `{error:{code,message}}`. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** The request's JSON body checked against `schema`; a 400 HttpError when it is not JSON or does not fit. */
export async function readBody<T extends z.ZodType>(c: Context, schema: T): Promise<z.output<T>> {
  let value: unknown;
  try {
    value = await c.req.json();
  } catch {
    throw new HttpError(400, 'invalid_json', 'The request body is not valid JSON.');
  }
  const parsed = schema.safeParse(value);
  if (!parsed.success)
    throw new HttpError(400, 'invalid_body', `Invalid body: ${describeIssues(parsed.error)}`);
  return parsed.data;
}
