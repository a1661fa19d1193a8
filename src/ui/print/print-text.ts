import type { TerminalSafe } from '../../util/sanitize-terminal.js';

declare const jsonLine: unique symbol;

/**
 * One line of stream-json output: JSON for a program, not text for a terminal, so it is written as
 * JSON.stringify made it (control characters in strings are escaped there; the rest is the reader's).
 */
export type JsonLine = string & { readonly [jsonLine]: true };

export function toJsonLine(value: unknown): JsonLine {
  return `${JSON.stringify(value)}\n` as JsonLine;
}

/** What print mode writes: safe text in the text format, JSON lines in stream-json. */
export type PrintText = TerminalSafe | JsonLine;
