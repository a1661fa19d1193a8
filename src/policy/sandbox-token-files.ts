import { constants, lstatSync, type Stats } from 'node:fs';
import { type FileHandle, open } from 'node:fs/promises';
import { basename } from 'node:path';
import { npmrcWithoutCredentials } from './npmrc-credentials.js';
import type { RedactedCopies } from './sandbox-redacted-copies.js';
import {
  isUtf16,
  packedFormat,
  secretContentReason,
  trailingTokenChars,
  withoutNuls,
} from './secret-content.js';
import { redactSpans, tokenSpans } from './token-redaction.js';

/** How much the scan of the work tree's files reads. */
export interface TokenScanBounds {
  /**
   * Of each file, its first bytes: a token that starts past them is not seen (a log of a gigabyte is
   * not read at every session's start). A token that starts before the bound and runs past it is
   * read to its end (up to TOKEN_RUN_BYTES more) and replaced whole.
   */
  readonly fileBytes: number;
  /**
   * Of all files, in one reading: the files past it are scanned by the next readings (each file once
   * while unchanged), and counted as not scanned meanwhile.
   */
  readonly readingBytes: number;
  /** A file holding a token and larger than this is hidden whole (no copy of it is made). */
  readonly copyBytes: number;
}

export const TOKEN_SCAN_BOUNDS: TokenScanBounds = {
  fileBytes: 1024 * 1024,
  readingBytes: 64 * 1024 * 1024,
  copyBytes: 64 * 1024 * 1024,
};

/** Past the file bound, a match begun before it still read whole (secret-content.ts's overlap). */
const OVERLAP_BYTES = 4096;
/** How far a run of token characters at the end of what was read is followed (a JWT has no bound). */
const TOKEN_RUN_BYTES = 64 * 1024;
/** A file changed this recently before its scan is scanned again next time (coarse file times). */
const SETTLED_MS = 50;

/** What a scan of one file found. */
type FileScan =
  | { readonly kind: 'clean' }
  /** Its tokens replaced in a copy, bound over it. */
  | { readonly kind: 'copy'; readonly copy: string }
  /** Holds a secret no copy can leave out (a Kubernetes Secret, UTF-16 text, too large): hidden whole. */
  | { readonly kind: 'hidden' };

const CLEAN: FileScan = { kind: 'clean' };
const HIDDEN: FileScan = { kind: 'hidden' };

/** One reading's findings over the files it was given. */
export interface TokenFindings {
  /** Each file holding a token → its redacted copy. */
  readonly copies: ReadonlyMap<string, string>;
  /** Files to hide whole. */
  readonly hidden: readonly string[];
  /** Files left for a later reading (the reading's byte bound). */
  readonly unscanned: number;
}

/**
 * The scan of one root's files for tokens (the table of secret-content-rules.ts), so that a file
 * with a plain name holding one (`deploy-notes.txt` with a `ghp_…`) reaches no command whole: the
 * sandbox binds a redacted copy over it (RedactedCopies). Each file is read once while unchanged: a
 * reading lstats every file it is given and scans only those whose (device, inode, size, mtime,
 * ctime) moved since — any write moves the ctime, which no call can set back, and a file renamed into
 * place is a new path. The copy of `.npmrc` (secret by name, hidden whole before) leaves out its
 * credential lines, so npm keeps its registry settings.
 */
export class TokenFiles {
  /** Each file's last scan, by path, with the identity of what was read (null: scan it again). */
  private known = new Map<string, { readonly key: string | null; readonly scan: FileScan }>();
  /** Files opened and read so far (each unchanged file once): what a reading cost, for the tests and benches. */
  scannedFiles = 0;

  constructor(
    private readonly copies: RedactedCopies,
    private readonly bounds: TokenScanBounds = TOKEN_SCAN_BOUNDS,
  ) {}

  /**
   * The tokens of `files` (regular files, absolute) and of `npmrcs` (`.npmrc` files: their copies
   * leave out credential lines). What is not given again is forgotten, its copy removed.
   */
  async find(files: readonly string[], npmrcs: readonly string[] = []): Promise<TokenFindings> {
    const started = Date.now();
    const known = new Map<string, { readonly key: string | null; readonly scan: FileScan }>();
    const copies = new Map<string, string>();
    const hidden: string[] = [];
    let budget = this.bounds.readingBytes;
    let unscanned = 0;
    const all = npmrcs.length === 0 ? files : files.concat(npmrcs);
    for (let i = 0; i < all.length; i++) {
      const path = all[i] as string;
      const stat = lstatOf(path);
      if (stat === undefined || !stat.isFile()) continue;
      const key = keyOf(stat);
      const before = this.known.get(path);
      let scan: FileScan;
      if (before !== undefined && before.key === key) scan = before.scan;
      else if (budget <= 0) {
        unscanned++;
        continue;
      } else {
        budget -= Math.min(stat.size, this.bounds.fileBytes);
        scan = await this.scan(path, i >= files.length);
        // Changed just now: its times may not move with a second write in the same tick.
        const settled = stat.ctimeMs < started - SETTLED_MS;
        known.set(path, { key: settled ? key : null, scan });
      }
      if (!known.has(path)) known.set(path, { key, scan });
      if (scan.kind === 'copy') copies.set(path, scan.copy);
      else if (scan.kind === 'hidden') hidden.push(path);
    }
    for (const [path, { scan }] of this.known)
      if (scan.kind === 'copy' && !copies.has(path)) this.copies.remove(path);
    this.known = known;
    return { copies, hidden, unscanned };
  }

  /** Opens, reads and judges one file; makes its copy when it holds a token. */
  private async scan(path: string, isNpmrc: boolean): Promise<FileScan> {
    let handle: FileHandle | undefined;
    this.scannedFiles++;
    try {
      // Non-blocking: a FIFO put where a file was is not waited on.
      handle = await open(path, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOFOLLOW);
      const info = await handle.stat();
      if (!info.isFile()) return CLEAN;
      return isNpmrc
        ? await this.scanNpmrc(path, handle, info.size)
        : await this.scanOpen(path, handle, info.size);
    } catch {
      // Unreadable: no command can read it either (the sandbox runs as this user).
      return CLEAN;
    } finally {
      await handle?.close().catch(() => undefined);
    }
  }

  private async scanOpen(path: string, handle: FileHandle, size: number): Promise<FileScan> {
    const head = await readHead(handle, size, this.bounds.fileBytes);
    // Compressed or an archive: its content is not text the table reads (archives by name are
    // looked into by secret-walk-other-names.ts).
    if (packedFormat(head) !== null) return CLEAN;
    if (isUtf16(head)) return secretContentReason(withoutNuls(head)) === null ? CLEAN : HIDDEN;
    const spans = tokenSpans(head.toString('latin1'));
    if (spans === 'whole') return HIDDEN;
    if (spans.length === 0) return CLEAN;
    if (size > this.bounds.copyBytes) return HIDDEN;
    redactSpans(head, spans);
    const copy = await this.copies.make(path, head, handle, size);
    return copy === null ? HIDDEN : { kind: 'copy', copy };
  }

  private async scanNpmrc(path: string, handle: FileHandle, size: number): Promise<FileScan> {
    if (size > this.bounds.fileBytes) return HIDDEN;
    const text = (await readHead(handle, size, size)).toString('utf8');
    const kept = Buffer.from(npmrcWithoutCredentials(text), 'utf8');
    const copy = await this.copies.make(path, kept, handle, kept.length);
    return copy === null ? HIDDEN : { kind: 'copy', copy };
  }
}

/** Whether `path` is a `.npmrc` (its copy leaves out credential lines). */
export function isNpmrc(path: string): boolean {
  return basename(path) === '.npmrc';
}

/**
 * The first `bound` bytes of a file of `size` bytes, and on to the end of a run of token characters
 * they end in (up to TOKEN_RUN_BYTES more) plus an overlap: a token across the bound is read whole.
 */
async function readHead(handle: FileHandle, size: number, bound: number): Promise<Buffer> {
  let length = Math.min(size, bound + OVERLAP_BYTES);
  let buffer = Buffer.alloc(length);
  let { bytesRead } = await handle.read(buffer, 0, length, 0);
  if (bytesRead === length && length < size) {
    const run = trailingTokenChars(buffer.toString('latin1', Math.max(0, length - TOKEN_RUN_BYTES)));
    if (run > 0) {
      length = Math.min(size, length + TOKEN_RUN_BYTES);
      const longer = Buffer.alloc(length);
      buffer.copy(longer);
      const more = await handle.read(longer, bytesRead, length - bytesRead, bytesRead);
      bytesRead += more.bytesRead;
      buffer = longer;
    }
  }
  return buffer.subarray(0, bytesRead);
}

function lstatOf(path: string): Stats | undefined {
  try {
    return lstatSync(path, { throwIfNoEntry: false });
  } catch {
    return undefined;
  }
}

/** What identifies a file's content (times as fractional milliseconds move with every change). */
function keyOf(stat: Stats): string {
  return `${stat.dev}:${stat.ino}:${stat.size}:${stat.mtimeMs}:${stat.ctimeMs}`;
}
