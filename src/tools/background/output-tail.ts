import { open } from 'node:fs/promises';

export interface OutputTail {
  /** The text of the last bytes read (a character cut at the start is dropped). */
  text: string;
  /** Whether the output file exists. */
  exists: boolean;
  sizeBytes: number;
  /** Bytes the text was decoded from. */
  previewBytes: number;
  /** The file holds more than the tail. */
  truncated: boolean;
}

/** Reads the last `maxBytes` of a (possibly still growing) output file. */
export async function readOutputTail(path: string, maxBytes: number): Promise<OutputTail> {
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(path, 'r');
  } catch {
    return { text: '', exists: false, sizeBytes: 0, previewBytes: 0, truncated: false };
  }
  try {
    const { size } = await handle.stat();
    const start = Math.max(0, size - maxBytes);
    const buffer = Buffer.alloc(size - start);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, start);
    let bytes = buffer.subarray(0, bytesRead);
    // Starting mid-file may land inside a UTF-8 sequence: skip its continuation bytes.
    let skip = 0;
    while (start > 0 && skip < Math.min(3, bytes.length) && ((bytes[skip] ?? 0) & 0xc0) === 0x80) skip++;
    bytes = bytes.subarray(skip);
    return {
      text: bytes.toString('utf8'),
      exists: true,
      sizeBytes: size,
      previewBytes: bytes.length,
      truncated: start > 0,
    };
  } finally {
    await handle.close();
  }
}

/** The last `maxLines` lines of `text`, then at most its last `maxChars` characters. */
export function tailLines(text: string, maxLines: number, maxChars: number): string {
  const lines = text.replace(/\n+$/, '').split('\n');
  const tail = lines.slice(-maxLines).join('\n');
  return tail.length > maxChars ? tail.slice(tail.length - maxChars) : tail;
}
