import { lstatSync, readFileSync, type Stats } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';

/**
 * The files of a work tree whose content is the one git's index holds, told from their stat alone
 * as git tells them (its racy-clean rule): the index entry's ctime, mtime, inode and size are the
 * file's, and the entry was stat'ed before the index was written (an entry whose mtime is not older
 * than the index file is "racily clean": a write in the same tick would not show, so it counts as
 * changed). A command cannot set a ctime back, so a file written since its entry was made differs.
 *
 * Such a file's bytes are a blob in the repository's object store (`git add` writes it there first):
 * every token in it can be read from the store, by `git show :path` or `git cat-file`, which the
 * history scan (git-store-secrets.ts) makes a question, and by git run at a name built at run time,
 * which nothing sees. The token scan of the work tree (sandbox-token-files.ts) passes it over: a
 * redacted copy of it would hide from commands nothing the store does not hand them, and it made
 * the sample tokens of a project's tracked tests and fixtures read-only, so a sandboxed formatter or
 * test run failed on them.
 *
 * Only the repository whose work tree is the root itself (its `.git` a folder, or a file naming
 * one); index versions 2 to 4; a file in a merge conflict, marked intent-to-add or skip-worktree, or
 * not a regular file in the index counts as not clean.
 */
export class GitIndexClean {
  private indexPath: string | null | undefined;
  private indexStat: { mtimeMs: number; ctimeMs: number; size: number; ino: number } | undefined;
  private entries: ReadonlyMap<string, IndexEntry> = new Map();

  constructor(private readonly root: string) {}

  /** Reads the index again when it changed since the last call (a cheap lstat when not). */
  refresh(): void {
    this.indexPath ??= indexPathOf(this.root);
    if (this.indexPath === null) return;
    let stat: Stats | undefined;
    try {
      stat = lstatSync(this.indexPath, { throwIfNoEntry: false });
    } catch {
      stat = undefined;
    }
    if (stat === undefined || !stat.isFile()) {
      this.entries = new Map();
      this.indexStat = undefined;
      return;
    }
    const known = this.indexStat;
    if (
      known !== undefined &&
      known.mtimeMs === stat.mtimeMs &&
      known.ctimeMs === stat.ctimeMs &&
      known.size === stat.size &&
      known.ino === stat.ino
    )
      return;
    this.indexStat = { mtimeMs: stat.mtimeMs, ctimeMs: stat.ctimeMs, size: stat.size, ino: stat.ino };
    try {
      this.entries = parseIndex(
        readFileSync(this.indexPath),
        this.root,
        stat.mtimeMs,
        hashBytesOf(this.root),
      );
    } catch {
      this.entries = new Map();
    }
  }

  /** Whether the file at `path` (absolute, under the root), with this lstat, is as the index holds it. */
  isClean(path: string, stat: Stats): boolean {
    const entry = this.entries.get(path);
    return (
      entry !== undefined &&
      entry.size === stat.size % 2 ** 32 &&
      entry.ino === stat.ino % 2 ** 32 &&
      sameTime(entry.mtimeMs, stat.mtimeMs) &&
      sameTime(entry.ctimeMs, stat.ctimeMs)
    );
  }
}

interface IndexEntry {
  readonly ctimeMs: number;
  readonly mtimeMs: number;
  readonly ino: number;
  readonly size: number;
}

/** Times from the index (seconds, nanoseconds) and from lstat (fractional ms: ~0.25 µs steps today). */
function sameTime(a: number, b: number): boolean {
  return Math.abs(a - b) < 0.001;
}

/** The index file of the repository whose work tree is `root`, or null when none is there. */
function indexPathOf(root: string): string | null {
  const dotGit = join(root, '.git');
  try {
    const stat = lstatSync(dotGit, { throwIfNoEntry: false });
    if (stat?.isDirectory()) return join(dotGit, 'index');
    if (!stat?.isFile()) return null;
    const named = /^gitdir: (.+)$/m.exec(readFileSync(dotGit, 'utf8'))?.[1]?.trim();
    if (named === undefined) return null;
    return join(isAbsolute(named) ? named : resolve(root, named), 'index');
  } catch {
    return null;
  }
}

/** 20 bytes an object id, or 32 in a SHA-256 repository (its config says so). */
function hashBytesOf(root: string): number {
  try {
    const config = readFileSync(join(root, '.git', 'config'), 'utf8');
    return /^\s*objectformat\s*=\s*sha256\s*$/im.test(config) ? 32 : 20;
  } catch {
    return 20;
  }
}

const STAGE_MASK = 0x3000;
const EXTENDED = 0x4000;
const NAME_MASK = 0x0fff;
const REGULAR_FILE = 0o100000;
const TYPE_MASK = 0o170000;

/**
 * The stage-0 regular files of an index (git's index-format.txt), by absolute path, each with the
 * stat it was recorded with; those not older than the index file (`indexMtimeMs`) left out (racy).
 */
export function parseIndex(
  data: Buffer,
  root: string,
  indexMtimeMs: number,
  hashBytes = 20,
): ReadonlyMap<string, IndexEntry> {
  const entries = new Map<string, IndexEntry>();
  if (data.length < 12 || data.toString('latin1', 0, 4) !== 'DIRC') return entries;
  const version = data.readUInt32BE(4);
  if (version < 2 || version > 4) return entries;
  const count = data.readUInt32BE(8);
  const prefix = root.endsWith('/') ? root : `${root}/`;
  let at = 12;
  let previous = '';
  for (let i = 0; i < count; i++) {
    const start = at;
    const ctimeMs = data.readUInt32BE(at) * 1000 + data.readUInt32BE(at + 4) / 1e6;
    const mtimeMs = data.readUInt32BE(at + 8) * 1000 + data.readUInt32BE(at + 12) / 1e6;
    const ino = data.readUInt32BE(at + 20);
    const mode = data.readUInt32BE(at + 24);
    const size = data.readUInt32BE(at + 36);
    at += 40 + hashBytes;
    const flags = data.readUInt16BE(at);
    at += 2;
    let extended = 0;
    if ((flags & EXTENDED) !== 0) {
      extended = data.readUInt16BE(at);
      at += 2;
    }
    let name: string;
    if (version === 4) {
      // The name is the previous one less N bytes (a varint), then what follows up to a NUL.
      let drop = data[at++] as number;
      let value = drop & 0x7f;
      while ((drop & 0x80) !== 0) {
        drop = data[at++] as number;
        value = ((value + 1) << 7) | (drop & 0x7f);
      }
      const end = data.indexOf(0, at);
      name = previous.slice(0, previous.length - value) + data.toString('latin1', at, end);
      at = end + 1;
    } else {
      const length = flags & NAME_MASK;
      const end = length < NAME_MASK ? at + length : data.indexOf(0, at);
      name = data.toString('latin1', at, end);
      // Padded with one to eight NULs to a multiple of eight bytes from the entry's start.
      at = start + Math.ceil((end - start + 1) / 8) * 8;
    }
    previous = name;
    if (at > data.length) return new Map();
    // A conflict's stages, intent-to-add and skip-worktree (extended flags) are no clean file.
    if ((flags & STAGE_MASK) !== 0 || extended !== 0) continue;
    if ((mode & TYPE_MASK) !== REGULAR_FILE) continue;
    // Racily clean: the file may have changed in the tick the index was written.
    if (mtimeMs >= indexMtimeMs - 1) continue;
    // Names are bytes: a name that is not ASCII is looked up as UTF-8, as the walk lists it.
    const path = prefix + Buffer.from(name, 'latin1').toString('utf8');
    entries.set(path, { ctimeMs, mtimeMs, ino, size });
  }
  return entries;
}
