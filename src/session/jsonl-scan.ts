import { open } from 'node:fs/promises';

/**
 * Reads a JSONL file line by line until `visit` returns a value other than `undefined`, and returns
 * that value (or `undefined` at the end). Stops reading as soon as it has an answer, so asking about
 * the first lines of a large file is cheap. A missing file reads as empty.
 */
export async function scanJsonLines<T>(
  path: string,
  visit: (line: string) => T | undefined,
): Promise<T | undefined> {
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(path, 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  try {
    for await (const line of handle.readLines({ encoding: 'utf8', autoClose: false })) {
      if (line.trim() === '') continue;
      const found = visit(line);
      if (found !== undefined) return found;
    }
    return undefined;
  } finally {
    await handle.close();
  }
}

/** `JSON.parse` that answers `undefined` instead of throwing. */
export function tryParseJson(line: string): unknown {
  try {
    return JSON.parse(line);
  } catch {
    return undefined;
  }
}
