import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';

/**
 * The longest line a reader of session files (wire.jsonl, context.jsonl) takes in. Session files can
 * come from elsewhere (a ZIP, a shared folder): one 500 MiB line must not hold a reader at gigabytes.
 * A real record is far smaller (tool output is capped long before this).
 */
export const MAX_SESSION_LINE_BYTES = 16 * 1024 * 1024;

/** A line left out because it was longer than the limit (1-based line number, its length in bytes). */
export interface SkippedLine {
  readonly line: number;
  readonly bytes: number;
}

export interface BoundedLinesOptions {
  maxLineBytes?: number | undefined;
  /** Told about each line too long to read; it is skipped without being held in memory. */
  onSkipped?: ((skipped: SkippedLine) => void) | undefined;
  /** Byte range to read (inclusive end), as `createReadStream` takes it. */
  start?: number | undefined;
  end?: number | undefined;
}

export interface BoundedLinesResult {
  /** Lines seen (read or skipped), the unterminated last one included. */
  lines: number;
  /** The range read ended with a newline (or was empty). */
  terminated: boolean;
  /** `onLine` asked to stop before the end. */
  stopped: boolean;
}

/** How the empty, missing file reads. */
const NOTHING: BoundedLinesResult = { lines: 0, terminated: true, stopped: false };

/**
 * Calls `onLine` with each line of a file (without its `\n` or `\r\n`; empty lines included) while
 * holding at most one line of `maxLineBytes` plus one read chunk in memory. A longer line is
 * skipped as it streams past and reported to `onSkipped` with its number. `onLine` returns `true` to
 * stop early. A missing file has no lines.
 */
export async function readBoundedLines(
  path: string,
  onLine: (text: string, line: number) => unknown,
  options: BoundedLinesOptions = {},
): Promise<BoundedLinesResult> {
  const max = options.maxLineBytes ?? MAX_SESSION_LINE_BYTES;
  // A missing file (a new session's cron.jsonl, read before its first model request) costs one
  // failed stat, not a read stream and its async iterator built to fail (~1.5 ms of CPU). Not a
  // FileHandle's stream: one that refuses its range leaves the handle unclosable (Node 20-24).
  try {
    await stat(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return NOTHING;
    throw error;
  }
  const stream = createReadStream(path, { highWaterMark: 1 << 20, start: options.start, end: options.end });
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  /** Bytes of the current line passed over since it grew past the limit; null while reading it. */
  let skippedBytes: number | null = null;
  let line = 0;
  let lastByte = 0x0a;
  const endLine = (piece: Buffer): boolean => {
    line++;
    if (skippedBytes !== null || pendingBytes + piece.length > max) {
      options.onSkipped?.({ line, bytes: (skippedBytes ?? pendingBytes) + piece.length });
      skippedBytes = null;
      pending = [];
      pendingBytes = 0;
      return false;
    }
    const whole = pending.length === 0 ? piece : Buffer.concat([...pending, piece]);
    pending = [];
    pendingBytes = 0;
    const end = whole.length > 0 && whole[whole.length - 1] === 0x0d ? whole.length - 1 : whole.length;
    return onLine(whole.toString('utf8', 0, end), line) === true;
  };
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      if (chunk.length === 0) continue;
      lastByte = chunk[chunk.length - 1]!;
      let start = 0;
      for (let at = chunk.indexOf(0x0a, start); at !== -1; at = chunk.indexOf(0x0a, start)) {
        if (endLine(chunk.subarray(start, at))) return { lines: line, terminated: false, stopped: true };
        start = at + 1;
      }
      const rest = chunk.subarray(start);
      if (rest.length === 0) continue;
      if (skippedBytes !== null) skippedBytes += rest.length;
      else if (pendingBytes + rest.length > max) {
        // Past the limit: what was held goes, the rest of the line is only counted.
        skippedBytes = pendingBytes + rest.length;
        pending = [];
        pendingBytes = 0;
      } else {
        // A copy, so that the 1 MiB chunk it came from is not kept alive by a short tail.
        pending.push(Buffer.from(rest));
        pendingBytes += rest.length;
      }
    }
    if (pendingBytes > 0 || skippedBytes !== null) {
      if (endLine(Buffer.alloc(0))) return { lines: line, terminated: false, stopped: true };
    }
    return { lines: line, terminated: lastByte === 0x0a, stopped: false };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return NOTHING;
    throw error;
  } finally {
    stream.destroy();
  }
}

/** The words a reader uses to say which line it skipped. */
export function describeSkippedLine(skipped: SkippedLine, maxLineBytes = MAX_SESSION_LINE_BYTES): string {
  return `Line ${skipped.line} is ${skipped.bytes} bytes long, more than the ${maxLineBytes / (1024 * 1024)} MiB a line may have: skipped, not read.`;
}
