import { type BigIntStats, constants, statSync } from 'node:fs';
import { type FileHandle, open } from 'node:fs/promises';

import { SECRET_CONTENT_RULES } from './secret-content-rules.js';

/** Why `text` holds a secret (the kind of credential, never the value), or null. */
export function secretContentReason(text: string): string | null {
  let lowered: string | undefined;
  for (const rule of SECRET_CONTENT_RULES) {
    let searched = text;
    if (rule.anyCase) {
      lowered ??= text.toLowerCase();
      searched = lowered;
    }
    if (!rule.hints.some((hint) => searched.includes(hint))) continue;
    if (rule.pattern.test(text) && (rule.also === undefined || rule.also.test(text)))
      return `holds ${rule.what}`;
  }
  return null;
}

/** Each rule's pattern made global (for replacing every match), made on first use. */
let globalPatterns: readonly (RegExp | null)[] | undefined;

/**
 * `text` with every match of the table replaced by `replacement` (a private key from its header to
 * its end marker): a backstop for tool output, which may print a credential no check saw coming
 * (a command's own output, git's stored blobs). Rules that judge a whole text (a Kubernetes Secret)
 * have no single value to take out and are left to the checks before a read.
 */
export function redactSecretContent(text: string, replacement: string): string {
  globalPatterns ??= SECRET_CONTENT_RULES.map((rule) => {
    if (rule.also !== undefined) return null;
    const source =
      rule.what === 'a private key'
        ? `${rule.pattern.source}[\\s\\S]*?(?:-----END[^\\n]*-----|$)`
        : rule.pattern.source;
    return new RegExp(
      source,
      rule.pattern.flags.includes('g') ? rule.pattern.flags : `${rule.pattern.flags}g`,
    );
  });
  let out = text;
  let lowered: string | undefined;
  SECRET_CONTENT_RULES.forEach((rule, i) => {
    const pattern = globalPatterns![i];
    if (!pattern) return;
    let searched = out;
    if (rule.anyCase) {
      lowered ??= out.toLowerCase();
      searched = lowered;
    }
    if (!rule.hints.some((hint) => searched.includes(hint))) return;
    const next = out.replace(pattern, replacement);
    if (next !== out) lowered = undefined;
    out = next;
  });
  return out;
}

/**
 * How much of a file is read to look for credentials: all of it up to 64 MiB (a token pasted after
 * a megabyte of padding was read and searched when only the head was), in chunks of SCAN_CHUNK_BYTES
 * that overlap by SCAN_OVERLAP_BYTES or by the run of token characters a chunk ends with, whichever
 * is longer (a token across a chunk's end is whole in the next, a JWT of any length too). A larger
 * file is not scanned and counts as unscanned, not clean. Each file is scanned once while it is
 * unchanged; the table runs ~13 ms per MiB of text full of URLs, far less on most.
 */
export const SECRET_SCAN_BYTES = 64 * 1024 * 1024;
const SCAN_CHUNK_BYTES = 1024 * 1024;
const SCAN_OVERLAP_BYTES = 4096;

/**
 * Scans already made, by what identifies a file's content: device, inode, size, and the change and
 * modification times in nanoseconds. Any write changes ctime (which no call can set back), a file
 * swapped in is another inode, so a key that still matches is the content that was scanned.
 */
const scans = new Map<string, string | null>();
const MAX_SCANS = 512;
/**
 * A file changed less than this long before its scan began is not remembered: file times tick
 * coarsely (a jiffy, up to 10 ms), so a second write in the same tick would keep the key ("racy
 * git"). Past the margin, any later write has a later ctime.
 */
const SETTLED_MS = 50;

function contentKey(info: BigIntStats): string {
  return `${info.dev}:${info.ino}:${info.size}:${info.mtimeNs}:${info.ctimeNs}`;
}

/**
 * Why a regular file holds a secret by its content, or null (not a file, unreadable, nothing found).
 * Reads at most SECRET_SCAN_BYTES, without following the file to something that is not a regular file.
 * A file scanned before and unchanged since costs one stat, made synchronously (a system call of a
 * few µs, where a hop to libuv's thread pool and back costs several times that); only a scan reads.
 */
export async function fileSecretContentReason(
  path: string,
  /** The clock the settled margin is read on (tests move it). */
  now: () => number = Date.now,
): Promise<string | null> {
  const known = knownSecretContentReason(path);
  const reason = known !== undefined ? known : await scanFile(path, now());
  if (reason !== null) noteFoundSecret(path);
  return reason;
}

/**
 * The files content scans found secret, by the path they were asked about (the callers' real
 * paths), most recent last: the sandbox hides those inside the workspace from every command
 * (workspace-secret-files.ts), as it hides the files secret by name.
 */
const foundSecrets = new Set<string>();
const MAX_FOUND_SECRETS = 256;

function noteFoundSecret(path: string): void {
  foundSecrets.delete(path);
  foundSecrets.add(path);
  if (foundSecrets.size > MAX_FOUND_SECRETS) {
    const oldest = foundSecrets.values().next().value;
    if (oldest !== undefined) foundSecrets.delete(oldest);
  }
}

/** The paths content scans of this process found secret (see foundSecrets). */
export function secretsFoundByContent(): readonly string[] {
  return [...foundSecrets];
}

/**
 * fileSecretContentReason's answer when it needs no read (not a regular file, or a file scanned
 * before and unchanged since), with no promise; undefined when the file must be scanned.
 */
export function knownSecretContentReason(path: string): string | null | undefined {
  let info: BigIntStats | undefined;
  try {
    // stat opens nothing: a FIFO put where a file was expected cannot hold the decision.
    info = statSync(path, { bigint: true, throwIfNoEntry: false });
  } catch {
    return null;
  }
  if (!info?.isFile()) return null;
  const key = contentKey(info);
  const known = scans.get(key);
  if (known === undefined) return undefined;
  // Most recently used last: the oldest scan is the one dropped.
  scans.delete(key);
  scans.set(key, known);
  return known;
}

/** Opens, checks and reads the file, and remembers the scan under the key of what was read. */
async function scanFile(path: string, started: number): Promise<string | null> {
  let handle: Awaited<ReturnType<typeof open>> | undefined;
  try {
    // Non-blocking: a FIFO put where a file was expected must not hold the decision.
    handle = await open(path, constants.O_RDONLY | constants.O_NONBLOCK);
    const info = await handle.stat({ bigint: true });
    if (!info.isFile()) return null;
    const reason = await scanOpenFile(handle, Number(info.size));
    const changed = Number(info.ctimeNs / 1_000_000n);
    if (changed < started - SETTLED_MS) remember(contentKey(info), reason);
    return reason;
  } catch {
    return null;
  } finally {
    await handle?.close().catch(() => undefined);
  }
}

/**
 * The scan of an open file of `size` bytes, chunk by chunk. A file whose bytes say it is compressed
 * or an archive, or that is larger than SECRET_SCAN_BYTES, is not clean but unscanned: its reason
 * says so, and it is asked about like a secret (a `.env` in `backup.tar.gz`, a token after 64 MiB).
 */
async function scanOpenFile(handle: FileHandle, size: number): Promise<string | null> {
  let buffer = Buffer.alloc(Math.min(size, SCAN_CHUNK_BYTES));
  let length = buffer.length;
  let utf16 = false;
  for (let at = 0; at < size; ) {
    if (buffer.length < length) buffer = Buffer.alloc(length);
    const { bytesRead } = await handle.read(buffer, 0, Math.min(length, size - at), at);
    if (bytesRead === 0) break;
    const bytes = buffer.subarray(0, bytesRead);
    if (at === 0) {
      const packed = packedFormat(bytes);
      if (packed !== null) return `is ${packed}, whose content is not scanned for secrets`;
      if (size > SECRET_SCAN_BYTES)
        return `is larger than the ${SECRET_SCAN_BYTES / MIB} MiB scanned for secrets`;
      utf16 = isUtf16(bytes);
    }
    // UTF-16 text (a BOM, or NULs between ASCII letters): its NULs taken out, the ASCII formats
    // of the table read as they do in UTF-8.
    const text = utf16 ? withoutNuls(bytes) : bytes.toString('latin1');
    const reason = secretContentReason(text);
    if (reason !== null) return reason;
    if (at + bytesRead >= size) break;
    // The next chunk starts far enough back to hold whole any match that runs into this one's end:
    // the overlap, or the run of token characters the chunk ends with (a JWT has no length bound).
    const carry = Math.max(SCAN_OVERLAP_BYTES, trailingTokenChars(text) * (utf16 ? 2 : 1));
    if (carry >= bytesRead) {
      // One run of token characters the whole chunk long: read twice as much from the same place.
      length = Math.min(length * 2, SECRET_SCAN_BYTES);
      continue;
    }
    at += bytesRead - carry;
    length = SCAN_CHUNK_BYTES;
  }
  return null;
}

const MIB = 1024 * 1024;

/**
 * Why bytes held in memory (a blob of git's object store) hold a secret by content, or null: the
 * table, over the text decoded as a file's scan decodes it (UTF-16 made plain).
 */
export function bytesSecretContentReason(bytes: Buffer): string | null {
  return secretContentReason(isUtf16(bytes) ? withoutNuls(bytes) : bytes.toString('latin1'));
}

/** Characters of the formats with no bounded length (JWT, base64 and URL-safe tokens). */
function isTokenChar(code: number): boolean {
  return (
    (code >= 48 && code <= 57) || // 0-9
    (code >= 65 && code <= 90) || // A-Z
    (code >= 97 && code <= 122) || // a-z
    code === 45 || // -
    code === 46 || // .
    code === 95 || // _
    code === 43 || // +
    code === 47 || // /
    code === 61 // =
  );
}

export function trailingTokenChars(text: string): number {
  let i = text.length;
  while (i > 0 && isTokenChar(text.charCodeAt(i - 1))) i--;
  return text.length - i;
}

/**
 * What a file is by its first bytes when its content is compressed (so the table cannot read it)
 * or an archive (whose members' names are not checked), or null.
 */
export function packedFormat(head: Buffer): string | null {
  const starts = (...bytes: number[]) => bytes.every((b, i) => head[i] === b);
  if (starts(0x1f, 0x8b)) return 'gzip-compressed';
  if (starts(0x50, 0x4b, 0x03, 0x04) || starts(0x50, 0x4b, 0x05, 0x06)) return 'a zip archive';
  if (starts(0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00)) return 'xz-compressed';
  if (starts(0x42, 0x5a, 0x68)) return 'bzip2-compressed';
  if (starts(0x28, 0xb5, 0x2f, 0xfd)) return 'zstd-compressed';
  if (starts(0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c)) return 'a 7z archive';
  if (starts(0x04, 0x22, 0x4d, 0x18)) return 'lz4-compressed';
  if (starts(0x5d, 0x00, 0x00)) return 'lzma-compressed';
  // A plain tar: "ustar" at 257 in its first header.
  if (head.length >= 262 && head.toString('latin1', 257, 262) === 'ustar') return 'a tar archive';
  return null;
}

/**
 * Whether a file's first chunk is UTF-16: a byte-order mark, or (no mark) NULs in at least
 * three in eight of the odd or of the even bytes of its head, as ASCII text in UTF-16 has.
 */
export function isUtf16(head: Buffer): boolean {
  if (head.length < 2) return false;
  if ((head[0] === 0xff && head[1] === 0xfe) || (head[0] === 0xfe && head[1] === 0xff)) return true;
  const sample = Math.min(head.length, 1024) & ~1;
  if (sample < 16) return false;
  let even = 0;
  let odd = 0;
  for (let i = 0; i < sample; i += 2) {
    if (head[i] === 0) even++;
    if (head[i + 1] === 0) odd++;
  }
  const pairs = sample / 2;
  // Binary files have NULs too, but on both sides: one side mostly NUL and the other mostly not.
  return (odd * 8 >= pairs * 3 && even * 8 < pairs) || (even * 8 >= pairs * 3 && odd * 8 < pairs);
}

/** The bytes as Latin-1 text with every NUL left out (ASCII in UTF-16, either order, made plain). */
export function withoutNuls(bytes: Buffer): string {
  const out = Buffer.allocUnsafe(bytes.length);
  let n = 0;
  for (let i = 0; i < bytes.length; i++) if (bytes[i] !== 0) out[n++] = bytes[i]!;
  return out.toString('latin1', 0, n);
}

function remember(key: string, reason: string | null): void {
  scans.set(key, reason);
  if (scans.size > MAX_SCANS) {
    const oldest = scans.keys().next().value;
    if (oldest !== undefined) scans.delete(oldest);
  }
}
