import { readFile } from 'node:fs/promises';
import type { z } from 'zod';
import { writeFileAtomic } from './atomic-file.js';

/**
 * Writes JSON so a crash leaves the old or the new content, never a mix: a flushed temporary file
 * beside the target, renamed over it.
 */
export async function writeJsonAtomic(path: string, value: unknown): Promise<void> {
  await writeFileAtomic(path, `${JSON.stringify(value, null, 2)}\n`);
}

/** Reads and validates a JSON file; null when it is missing, unreadable or not of the expected shape. */
export async function readJsonFile<S extends z.ZodType>(
  path: string,
  schema: S,
): Promise<z.output<S> | null> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch {
    return null;
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return null;
  }
  const parsed = schema.safeParse(data);
  return parsed.success ? parsed.data : null;
}

/**
 * Keeps one file's atomic rewrites in order. Each write takes the state current when it runs, so
 * the file always ends with the latest state however many changes were queued behind a slow disk.
 */
export class SerialJsonWriter {
  private chain: Promise<void>;

  /** `ready`: writes wait for it (the folder being created). */
  constructor(
    private readonly path: string,
    private readonly currentState: () => unknown,
    ready: Promise<unknown> = Promise.resolve(),
  ) {
    this.chain = ready.then(
      () => {},
      () => {},
    );
  }

  /** Queues a rewrite; resolves when it (and every earlier one) is on disk. */
  write(): Promise<void> {
    const next = this.chain.then(() => writeJsonAtomic(this.path, this.currentState()));
    // A failed write must not stop later ones; the caller of this write still sees the failure.
    this.chain = next.catch(() => {});
    return next;
  }

  /** Resolves once every queued write has finished (successfully or not). */
  flush(): Promise<void> {
    return this.chain;
  }
}
