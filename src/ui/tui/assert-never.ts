/**
 * Marks a switch as exhaustive: a union member left unhandled is a compile error here.
 * (Local until src/util/assert-never.ts lands; then this file re-exports it.)
 */
export function assertNever(value: never): never {
  throw new Error(`Unhandled case: ${JSON.stringify(value)}`);
}
