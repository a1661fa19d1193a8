import { closeSync, constants, fstatSync, lstatSync, openSync, readSync, type Stats } from 'node:fs';
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

/** The files of one folder a reading is given (FolderFacts.otherFiles, as paths). */
export interface FolderFiles {
  readonly files: readonly string[];
  /** The folder's listing is the one the last reading was given (the walk kept its facts). */
  readonly sameListing: boolean;
}

const NONE_NAMED: ReadonlySet<string> = new Set();
const NOT_TRACKED = (): boolean => false;

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
 *
 * Reads are synchronous, a file at a time, with a turn of the event loop every few files: a hop to
 * libuv's thread pool for each open, stat, read and close cost three times the CPU of the reads on a
 * tree of 4,000 files (the first reading runs while the model is asked, beside the session's work).
 */
export class TokenFiles {
  /** Each file's last scan, by path, with the identity of what was read (null: scan it again). */
  private known = new Map<string, KnownFile>();
  /** Files opened and read so far (each unchanged file once): what a reading cost, for the tests and benches. */
  scannedFiles = 0;

  constructor(
    private readonly copies: RedactedCopies,
    /**
     * Whether plain-named files are scanned for tokens (`[sandbox] scan_workspace_tokens`); when not,
     * only `.npmrc` files get their copies.
     */
    readonly scansContent: boolean,
    private readonly bounds: TokenScanBounds = TOKEN_SCAN_BOUNDS,
    /** The clock a file's change is judged settled on (tests move it). */
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * The tokens of `files` (regular files, absolute) and of `npmrcs` (`.npmrc` files: their copies
   * leave out credential lines), each file's stat looked at again. What is not given again is
   * forgotten, its copy removed.
   */
  find(files: readonly string[], npmrcs: readonly string[] = []): Promise<TokenFindings> {
    return this.findIn([{ files, sameListing: false }], npmrcs);
  }

  /**
   * The same over the files of each folder, where a folder whose listing is the one the last reading
   * was given (`sameListing`) keeps what was known of its files without a stat, but for the files in
   * `named` and those that changed too recently to be known settled: the reading after a command
   * (see SandboxSecretFiles.refresh for why that is enough). Readings run one after another.
   */
  findIn(
    folders: readonly FolderFiles[],
    npmrcs: readonly string[] = [],
    named: ReadonlySet<string> = NONE_NAMED,
    /** Whether a file is as git's index holds it (git-index-clean.ts): passed over, not read. */
    isTrackedClean: (path: string, stat: Stats) => boolean = NOT_TRACKED,
  ): Promise<TokenFindings> {
    const found = this.finding.then(() => this.findNow(folders, npmrcs, named, isTrackedClean));
    this.finding = found.catch(() => undefined);
    return found;
  }

  /** The reading under way: the next starts after it (each builds on what the last one knew). */
  private finding: Promise<unknown> = Promise.resolve();

  private async findNow(
    folders: readonly FolderFiles[],
    npmrcs: readonly string[],
    named: ReadonlySet<string>,
    isTrackedClean: (path: string, stat: Stats) => boolean,
  ): Promise<TokenFindings> {
    const started = this.now();
    const known = new Map<string, KnownFile>();
    const copies = new Map<string, string>();
    const hidden: string[] = [];
    let budget = this.bounds.readingBytes;
    let unscanned = 0;
    let sinceTurn = 0;
    const groups = npmrcs.length === 0 ? folders : [...folders, { files: npmrcs, sameListing: false }];
    for (let g = 0; g < groups.length; g++) {
      const { files, sameListing } = groups[g] as FolderFiles;
      const npmrcGroup = npmrcs.length > 0 && g === groups.length - 1;
      for (const path of files) {
        let entry = this.known.get(path);
        // Its folder's listing unchanged (no file added, removed or renamed in it) and the file not
        // named by the command: what was known of it stands, with no stat.
        if (sameListing && entry?.identity != null && !named.has(path)) {
          known.set(path, entry);
          if (entry.scan.kind === 'copy') copies.set(path, entry.scan.copy);
          else if (entry.scan.kind === 'hidden') hidden.push(path);
          continue;
        }
        if (sinceTurn >= TURN_WORK) {
          sinceTurn = 0;
          await new Promise<void>((done) => setImmediate(done));
        }
        sinceTurn += STAT_WORK;
        const stat = lstatOf(path);
        if (stat === undefined || !stat.isFile()) continue;
        if (entry === undefined || !isSame(entry.identity, stat)) {
          // Its content is a blob of the repository's store (an `.npmrc` keeps its copy whatever).
          if (!npmrcGroup && isTrackedClean(path, stat)) {
            entry = { identity: identityOf(stat), scan: CLEAN };
            known.set(path, entry);
            continue;
          }
          if (budget <= 0) {
            unscanned++;
            // It held a token when last read: hidden whole until read again (its copy is stale).
            if (entry !== undefined && entry.scan.kind !== 'clean') hidden.push(path);
            continue;
          }
          const bytes = Math.min(stat.size, this.bounds.fileBytes);
          budget -= bytes;
          sinceTurn += bytes;
          const scan = this.scan(path, npmrcGroup);
          // Changed just now: its times may not move with a second write in the same tick.
          const settled = stat.ctimeMs < started - SETTLED_MS;
          entry = { identity: settled ? identityOf(stat) : null, scan };
        }
        known.set(path, entry);
        if (entry.scan.kind === 'copy') copies.set(path, entry.scan.copy);
        else if (entry.scan.kind === 'hidden') hidden.push(path);
      }
    }
    for (const [path, { scan }] of this.known)
      if (scan.kind === 'copy' && !copies.has(path)) this.copies.remove(path);
    this.known = known;
    return { copies, hidden, unscanned };
  }

  /** Opens, reads and judges one file; makes its copy when it holds a token. */
  private scan(path: string, isNpmrc: boolean): FileScan {
    let fd: number | undefined;
    this.scannedFiles++;
    try {
      // Non-blocking: a FIFO put where a file was is not waited on; a symlink swapped in is not followed.
      fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOFOLLOW);
      const info = fstatSync(fd);
      if (!info.isFile()) return CLEAN;
      return isNpmrc ? this.scanNpmrc(path, fd, info.size) : this.scanOpen(path, fd, info.size);
    } catch {
      // Unreadable: no command can read it either (the sandbox runs as this user).
      return CLEAN;
    } finally {
      if (fd !== undefined) closeSync(fd);
    }
  }

  private scanOpen(path: string, fd: number, size: number): FileScan {
    const head = readHead(fd, size, this.bounds.fileBytes);
    // Compressed or an archive: its content is not text the table reads (archives by name are
    // looked into by secret-walk-other-names.ts).
    if (packedFormat(head) !== null) return CLEAN;
    if (isUtf16(head)) return secretContentReason(withoutNuls(head)) === null ? CLEAN : HIDDEN;
    const spans = tokenSpans(head.toString('latin1'));
    if (spans === 'whole') return HIDDEN;
    if (spans.length === 0) return CLEAN;
    if (size > this.bounds.copyBytes) return HIDDEN;
    redactSpans(head, spans);
    const copy = this.copies.make(path, head, fd, size);
    return copy === null ? HIDDEN : { kind: 'copy', copy };
  }

  private scanNpmrc(path: string, fd: number, size: number): FileScan {
    if (size > this.bounds.fileBytes) return HIDDEN;
    const text = readHead(fd, size, size).toString('utf8');
    const kept = Buffer.from(npmrcWithoutCredentials(text), 'utf8');
    const copy = this.copies.make(path, kept, fd, kept.length);
    return copy === null ? HIDDEN : { kind: 'copy', copy };
  }
}

/** A file's last scan and the identity of what it read (null: scan it again). */
interface KnownFile {
  readonly identity: FileIdentity | null;
  readonly scan: FileScan;
}

/** What identifies a file's content (times as fractional milliseconds move with every change). */
interface FileIdentity {
  readonly dev: number;
  readonly ino: number;
  readonly size: number;
  readonly mtimeMs: number;
  readonly ctimeMs: number;
}

function identityOf({ dev, ino, size, mtimeMs, ctimeMs }: Stats): FileIdentity {
  return { dev, ino, size, mtimeMs, ctimeMs };
}

function isSame(identity: FileIdentity | null, stat: Stats): boolean {
  return (
    identity !== null &&
    identity.ctimeMs === stat.ctimeMs &&
    identity.mtimeMs === stat.mtimeMs &&
    identity.size === stat.size &&
    identity.ino === stat.ino &&
    identity.dev === stat.dev
  );
}

/** Work between two turns of the event loop: bytes read, and a stat counted as this many bytes. */
const TURN_WORK = 2 * 1024 * 1024;
const STAT_WORK = 4096;

/** Whether `path` is a `.npmrc` (its copy leaves out credential lines). */
export function isNpmrc(path: string): boolean {
  return basename(path) === '.npmrc';
}

/**
 * The first `bound` bytes of a file of `size` bytes, and on to the end of a run of token characters
 * they end in (up to TOKEN_RUN_BYTES more) plus an overlap: a token across the bound is read whole.
 */
function readHead(fd: number, size: number, bound: number): Buffer {
  let length = Math.min(size, bound + OVERLAP_BYTES);
  let buffer = Buffer.alloc(length);
  let bytesRead = readSync(fd, buffer, 0, length, 0);
  if (bytesRead === length && length < size) {
    const run = trailingTokenChars(buffer.toString('latin1', Math.max(0, length - TOKEN_RUN_BYTES)));
    if (run > 0) {
      length = Math.min(size, length + TOKEN_RUN_BYTES);
      const longer = Buffer.alloc(length);
      buffer.copy(longer);
      bytesRead += readSync(fd, longer, bytesRead, length - bytesRead, bytesRead);
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
