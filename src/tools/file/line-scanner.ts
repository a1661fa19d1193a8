import { createReadStream } from 'node:fs';

/** Lines longer than this (in characters) are cut; see `fitLine`. */
export const MAX_LINE_LENGTH = 2_000;
const CUT_MARKER = '...';
/** A UTF-8 character takes at most 4 bytes: past this many bytes a line is surely too long. */
const LINE_BYTE_CAP = MAX_LINE_LENGTH * 4 + 4;
const NEWLINE = 0x0a;

export interface ScannedLine {
  /** 1-based. */
  lineNo: number;
  /** The line's text with its line break (`\n`; a CRLF is shown as `\n`), cut to `MAX_LINE_LENGTH`. */
  text: string;
  truncated: boolean;
}

export interface ScanOptions {
  /** Lines before this one are only counted, never decoded. `Infinity` just counts. */
  firstLine: number;
  /** Gets each line from `firstLine` on; returning false stops decoding (counting goes on). */
  onLine?: ((line: ScannedLine) => boolean) | undefined;
  signal?: AbortSignal | undefined;
}

/**
 * Streams a file line by line without holding more than one (capped) line in memory, so reading the
 * first lines of a huge file, or counting its lines, costs no more memory than a small one. Returns
 * the number of lines in the file (a last line without a line break counts).
 */
export async function scanLines(path: string, options: ScanOptions): Promise<number> {
  const { firstLine, onLine } = options;
  let lineNo = 0;
  let decoding = onLine !== undefined && firstLine !== Number.POSITIVE_INFINITY;
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let pendingLonger = false;
  /** The file has bytes after its last line break. */
  let partial = false;

  const collecting = (): boolean => decoding && lineNo + 1 >= firstLine;
  const keep = (bytes: Buffer): void => {
    const room = LINE_BYTE_CAP - pendingBytes;
    if (bytes.length > room) pendingLonger = true;
    const kept = bytes.subarray(0, Math.max(0, room));
    if (kept.length === 0) return;
    pending.push(kept);
    pendingBytes += kept.length;
  };
  const finishLine = (hasNewline: boolean): void => {
    if (collecting() && onLine) {
      const line = fitLine(Buffer.concat(pending, pendingBytes), pendingLonger, hasNewline);
      decoding = onLine({ lineNo: lineNo + 1, ...line });
      pending = [];
      pendingBytes = 0;
      pendingLonger = false;
    }
    lineNo++;
    partial = false;
  };

  const stream = createReadStream(path, { highWaterMark: 1 << 16, signal: options.signal });
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    let position = 0;
    while (position < chunk.length) {
      const newline = chunk.indexOf(NEWLINE, position);
      if (newline === -1) {
        if (collecting()) keep(chunk.subarray(position));
        partial = true;
        break;
      }
      if (collecting()) keep(chunk.subarray(position, newline));
      finishLine(true);
      position = newline + 1;
    }
  }
  if (partial) finishLine(false);
  return lineNo;
}

/** Decodes a line (invalid UTF-8 becomes U+FFFD) and cuts it to `MAX_LINE_LENGTH` characters ending in "...". */
function fitLine(bytes: Buffer, longer: boolean, hasNewline: boolean): { text: string; truncated: boolean } {
  let content = bytes.toString('utf8');
  if (hasNewline && content.endsWith('\r')) content = content.slice(0, -1);
  const codePoints = Array.from(content);
  const truncated = longer || codePoints.length > MAX_LINE_LENGTH;
  if (truncated) content = codePoints.slice(0, MAX_LINE_LENGTH - CUT_MARKER.length).join('') + CUT_MARKER;
  return { text: hasNewline ? `${content}\n` : content, truncated };
}
