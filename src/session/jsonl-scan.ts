import { readBoundedLines, type SkippedLine } from '../util/bounded-lines.js';

/**
 * Reads a JSONL file line by line until `visit` returns a value other than `undefined`, and returns
 * that value (or `undefined` at the end). Stops reading as soon as it has an answer, so asking about
 * the first lines of a large file is cheap. A missing file reads as empty; a line longer than the
 * bound is skipped without being held (the file may come from elsewhere).
 */
export async function scanJsonLines<T>(
  path: string,
  visit: (line: string) => T | undefined,
  /** Told about each line too long to read (longer than MAX_SESSION_LINE_BYTES): it is skipped. */
  onSkipped?: (skipped: SkippedLine) => void,
): Promise<T | undefined> {
  let found: T | undefined;
  await readBoundedLines(
    path,
    (line) => {
      if (line.trim() === '') return false;
      found = visit(line);
      return found !== undefined;
    },
    { onSkipped },
  );
  return found;
}

/** `JSON.parse` that answers `undefined` instead of throwing. */
export function tryParseJson(line: string): unknown {
  try {
    return JSON.parse(line);
  } catch {
    return undefined;
  }
}
