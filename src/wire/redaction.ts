/**
 * What the wire does with text it must not pass on (secrets): the app hands in its secret registry.
 * Declared here so the wire needs nothing from the floors above it.
 */
export interface WireRedaction {
  /** The text with every secret replaced. */
  redact(text: string): string;
  /** A copy of a JSON-like value with every string redacted (the same value when nothing changed). */
  redactDeep<T>(value: T): T;
}
