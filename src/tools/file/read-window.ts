import { MAX_LINE_LENGTH, type ScannedLine, scanLines } from './line-scanner.js';

export { MAX_LINE_LENGTH };
/** At most this many lines per read. */
export const MAX_LINES = 1_000;
/** Reading stops once the lines read reach this many bytes (UTF-8, after cutting long lines). */
export const MAX_BYTES = 100 << 10;

export interface ReadWindow {
  lines: ScannedLine[];
  totalLines: number;
  /** The budget that cut the read short, if one did and lines were left unread. */
  limitReached: 'max_lines' | 'max_bytes' | null;
}

const byteLength = (line: ScannedLine): number => Buffer.byteLength(line.text);

/**
 * Reads `nLines` lines starting at line `offset` (1-based), within `MAX_LINES` and `MAX_BYTES`; the
 * line that crosses the byte budget is still included. The rest of the file is only counted.
 */
export async function readForward(
  path: string,
  offset: number,
  nLines: number,
  signal?: AbortSignal,
): Promise<ReadWindow> {
  const limit = Math.min(nLines, MAX_LINES);
  const lines: ScannedLine[] = [];
  let bytes = 0;
  let stoppedBy: ReadWindow['limitReached'] = null;
  const totalLines = await scanLines(path, {
    firstLine: offset,
    signal,
    onLine: (line) => {
      lines.push(line);
      bytes += byteLength(line);
      if (lines.length >= limit) {
        if (lines.length >= MAX_LINES) stoppedBy = 'max_lines';
        return false;
      }
      if (bytes >= MAX_BYTES) {
        stoppedBy = 'max_bytes';
        return false;
      }
      return true;
    },
  });
  const lastRead = lines.at(-1)?.lineNo ?? 0;
  return { lines, totalLines, limitReached: lastRead < totalLines ? stoppedBy : null };
}

/**
 * Tail mode: the last `count` lines of the file, of which the first `nLines` are kept; if those
 * exceed `MAX_BYTES`, the newest lines that fit are kept. Two passes (count, then decode the tail)
 * keep memory flat on big logs.
 */
export async function readTail(
  path: string,
  count: number,
  nLines: number,
  signal?: AbortSignal,
): Promise<ReadWindow> {
  const totalLines = await scanLines(path, { firstLine: Number.POSITIVE_INFINITY, signal });
  const limit = Math.min(nLines, MAX_LINES);
  const lines: ScannedLine[] = [];
  if (totalLines > 0) {
    await scanLines(path, {
      firstLine: Math.max(1, totalLines - count + 1),
      signal,
      onLine: (line) => {
        lines.push(line);
        return lines.length < limit;
      },
    });
  }
  let bytes = lines.reduce((sum, line) => sum + byteLength(line), 0);
  let dropped = false;
  while (bytes > MAX_BYTES && lines.length > 0) {
    bytes -= byteLength(lines.shift()!);
    dropped = true;
  }
  return { lines, totalLines, limitReached: dropped ? 'max_bytes' : null };
}
