import { lstatSync, opendirSync, readdirSync, realpathSync, type Stats, statSync } from 'node:fs';
import { basename, dirname, resolve, sep } from 'node:path';
import { realPathNow } from './real-path.js';

/**
 * What is known of a folder's entries while the folder is unchanged, by its identity (device,
 * inode, modification and change times in ns): its names, and which of them are symlinks, from one
 * listing. Creating, removing or renaming an entry — a symlink swapped in — changes the folder's
 * times, so a key that still matches is the folder as it was listed: a name it does not hold is
 * missing, a name that is no symlink is the folder's real path plus the name, with no look-up.
 */
interface FolderFacts {
  /** Null when the folder holds more than MAX_NAMES entries: each name is then looked up. */
  readonly listing: readonly string[] | null;
  readonly symlinks: ReadonlySet<string>;
  /**
   * The listing's names in ASCII lower case, made at the first question (see holdsNoFolder); null
   * when a name is not ASCII or there is no listing: then no name is known missing from it. Present
   * (undefined) from the start: every FolderFacts has one shape, so V8's code for it stays valid.
   */
  foldedNames: ReadonlySet<string> | null | undefined;
}
const folders = new Map<string, FolderFacts>();
/**
 * The key last made the newest in `folders`. Moving a key to the end (delete, set) at every decision
 * made V8 rehash the long-lived Map's table every few dozen decisions, each new table kept alive by
 * the old one and promoted (see recent-parses.ts).
 */
let newestFolderKey: string | null = null;
/**
 * The newest folder as its stat found it, by the path it was named by: a stat of that path with the
 * same numbers is the same folder, unchanged (its key, and its identity for realPathByIdentity, the
 * same texts), answered with no key or identity text made: each writes times in ms as decimal text,
 * about a µs a decision (most decisions look up the working folder of the last).
 */
let newestFolder: {
  readonly dir: string;
  readonly info: Stats;
  readonly real: string;
  readonly facts: FolderFacts;
} | null = null;
const MAX_FOLDERS = 64;
const MAX_NAMES = 4096;
/**
 * A folder changed less than this long before is not remembered: file times tick coarsely (a
 * jiffy, up to 10 ms), so a second change in the same tick would keep the key ("racy git").
 */
const SETTLED_MS = 50;

/**
 * The times in ms as doubles (sub-µs steps at today's dates), not BigInt ns: a key is only kept for a
 * folder changed SETTLED_MS before (see isSettled), so any later change has a ctime at least that
 * much later, far beyond the double's step; and a stat without BigInts costs a third less.
 */
function folderKey(info: Stats): string {
  return `${info.dev}:${info.ino}:${info.mtimeMs}:${info.ctimeMs}`;
}

/** Whether two stats give the same folderKey (and so the same identity for realPathByIdentity). */
function sameFolderKey(a: Stats, b: Stats): boolean {
  return a.dev === b.dev && a.ino === b.ino && a.mtimeMs === b.mtimeMs && a.ctimeMs === b.ctimeMs;
}

/** A folder as one decision sees it: its real path, and its remembered facts when it is settled. */
interface Folder {
  readonly real: string;
  readonly facts: FolderFacts | null;
  /** Nothing is there (its stat failed): nothing below it is either. */
  readonly missing: boolean;
}

/**
 * Real paths of the files the words of one decision name, each folder resolved once per decision
 * (its realpath and its identity). In a settled folder listed before and unchanged since, a name
 * that is no symlink there (or missing) is the folder's real path plus the name, with no look-up; a
 * symlink is resolved. A symlink swapped in changes the folder, so the next decision lists it again.
 * In a folder just changed, every name is resolved.
 *
 * Every look-up is synchronous: a stat or realpath(3) is a system call of a few µs, while the same
 * call through libuv's thread pool costs its round trip (~10 µs each, more on a loaded machine) and
 * the decision waits for it either way. Only a folder's first listing reads more (at most MAX_NAMES
 * entries, then never again while it is unchanged).
 */
export class DecisionRealPaths {
  private readonly folderOf = new Map<string, Folder>();
  private readonly reals = new Map<string, string>();
  /** The paths `of` resolved whose last part is a symlink (few: most names are none). */
  private readonly links = new Set<string>();
  private readonly started: number;
  /**
   * A folder the decision looks up anyway (the command's working folder, for its relative words):
   * a folder in it is looked up after it, so the listing can tell one that is missing with no stat
   * of its own (`for f in src-1/*.ts`: the glob's folder was stat'ed, found missing, and then the
   * working folder was, for the real path below it).
   */
  private readonly lookedUpFirst: string | null;
  /**
   * The path `of` last resolved, with its folder and name: the secret check asks knownMissing of
   * most paths right after their real path, and the folder is then not looked up again (a dirname,
   * a basename and a Map look-up per word).
   */
  private lastPath: string | null = null;
  private lastFolder: Folder | null = null;
  private lastName = '';

  constructor(now: () => number = Date.now, lookedUpFirst: string | null = null) {
    this.started = now();
    this.lookedUpFirst = lookedUpFirst;
  }

  /** The real path of an absolute, normalised path (as `path.resolve` makes them). */
  of(absolute: string): string {
    let real = this.reals.get(absolute);
    if (real === undefined) {
      real = this.resolveNow(absolute);
      this.reals.set(absolute, real);
    }
    return real;
  }

  /**
   * `of` for a name in a folder (the folder absolute and normalised, the name with no separator and
   * neither `.` nor `..`), without joining the two and splitting the path again (a dirname, a
   * basename and a hash of each new text): most words of a command are such names in its folder.
   */
  ofName(dir: string, name: string): string {
    const folder = this.folder(dir);
    // As resolveNow answers for the joined path: below a missing folder, or no symlink in a listed one.
    if (folder.missing) return childPath(folder.real, name);
    const facts = folder.facts;
    if (facts?.listing && !facts.symlinks.has(name)) return childPath(folder.real, name);
    return this.of(childPath(dir, name));
  }

  /** `knownMissing` for a name in a folder, as `ofName` takes them. */
  knownMissingName(dir: string, name: string): boolean {
    const folder = this.folder(dir);
    return folder.missing || holdsNoFolder(folder.facts, name);
  }

  /**
   * Whether the decision knows nothing is at `absolute` with no look-up of its own: its folder is
   * missing, or was listed unchanged without the name (false: it may be there).
   */
  knownMissing(absolute: string): boolean {
    if (absolute === this.lastPath && this.lastFolder !== null)
      return this.lastFolder.missing || holdsNoFolder(this.lastFolder.facts, this.lastName);
    const parent = dirname(absolute);
    if (parent === absolute) return false;
    const folder = this.folder(parent);
    return folder.missing || holdsNoFolder(folder.facts, basename(absolute));
  }

  /** The names in a folder (for a glob), from the remembered listing when the folder is unchanged. */
  list(dir: string): readonly string[] {
    const folder = this.folder(resolve(dir));
    if (folder.missing) return [];
    if (folder.facts?.listing) return folder.facts.listing;
    try {
      return readdirSync(dir);
    } catch {
      return [];
    }
  }

  private resolveNow(absolute: string): string {
    const parent = dirname(absolute);
    if (parent === absolute) return realOrNull(absolute) ?? absolute;
    const folder = this.folder(parent);
    const name = basename(absolute);
    this.lastPath = absolute;
    this.lastFolder = folder;
    this.lastName = name;
    // A realpath is normalised and a basename holds no separator: no join (and its normalising walk).
    const plain = childPath(folder.real, name);
    // Below a missing folder, or missing, or no symlink: the folder's real path plus the name (as
    // realPathNow works it out). Most names a command holds are no files: an lstat that finds
    // nothing answers that with no exception thrown (a realpath's costs ~10 µs).
    if (folder.missing) return plain;
    const facts = folder.facts;
    if (facts?.listing && !facts.symlinks.has(name)) return plain;
    if (!lstatOrNull(absolute)?.isSymbolicLink()) return plain;
    this.links.add(absolute);
    return realOrNull(absolute) ?? plain;
  }

  /**
   * Whether `of` found the last part of `absolute` a symlink: its real path's name is then not the
   * name it was given (`.env -> config/prod-values`), and the names on the way are judged too.
   */
  endsInLink(absolute: string): boolean {
    return this.links.size > 0 && this.links.has(absolute);
  }

  /** `endsInLink` for a name in a folder, as `ofName` takes them; the path when it is one, else null. */
  nameLinkPath(dir: string, name: string): string | null {
    if (this.links.size === 0) return null;
    const path = childPath(dir, name);
    return this.links.has(path) ? path : null;
  }

  private folder(dir: string): Folder {
    let found = this.folderOf.get(dir);
    if (!found) {
      found = this.lookUpFolder(dir);
      this.folderOf.set(dir, found);
    }
    return found;
  }

  private lookUpFolder(dir: string): Folder {
    // A folder whose parent this decision already found missing, or listed (unchanged) without it,
    // is missing too: no stat (a command's words name folders that do not exist: `src-1/*.ts`).
    const parentDir = dirname(dir);
    const parent =
      parentDir === dir
        ? undefined
        : (this.folderOf.get(parentDir) ??
          (parentDir === this.lookedUpFirst ? this.folder(parentDir) : undefined));
    if (parent && (parent.missing || holdsNoFolder(parent.facts, basename(dir)))) {
      return { real: childPath(parent.real, basename(dir)), facts: null, missing: true };
    }
    // A folder swapped between the two answers is the race any check before a command runs has
    // (the shell resolves the path again when it runs).
    const info = statOrNull(dir);
    if (!info) {
      // Missing: its parent's real path plus its name, as realPathNow works it out (without the
      // exception its failed realpath throws).
      const parent = dirname(dir);
      const real = parent === dir ? dir : childPath(this.folder(parent).real, basename(dir));
      return { real, facts: null, missing: true };
    }
    const newest = newestFolder;
    if (
      newest !== null &&
      newest.dir === dir &&
      sameFolderKey(newest.info, info) &&
      info.isDirectory() &&
      this.isSettled(info)
    )
      return { real: newest.real, facts: newest.facts, missing: false };
    const real = realPathByIdentity(dir, info);
    if (!info.isDirectory() || !this.isSettled(info)) return { real, facts: null, missing: false };
    const key = folderKey(info);
    let facts = folders.get(key);
    // The folder of the last decision again (most are): already the newest, the Map is not touched.
    if (facts && key === newestFolderKey) {
      newestFolder = { dir, info, real, facts };
      return { real, facts, missing: false };
    }
    if (facts) folders.delete(key);
    else {
      const listed = listFolder(dir);
      // Kept only if the folder did not change while it was listed (its key is the one listed).
      const after = statOrNull(dir);
      if (!listed || !after || folderKey(after) !== key) return { real, facts: null, missing: false };
      facts = listed;
    }
    // Most recently used last: the oldest folder is the one dropped.
    folders.set(key, facts);
    newestFolderKey = key;
    newestFolder = { dir, info, real, facts };
    if (folders.size > MAX_FOLDERS) {
      const oldest = folders.keys().next().value;
      if (oldest !== undefined) folders.delete(oldest);
    }
    return { real, facts, missing: false };
  }

  private isSettled(info: Stats): boolean {
    return info.ctimeMs < this.started - SETTLED_MS;
  }
}

/**
 * Folders' real paths by the path they were named by, with the identity (device, inode, change
 * time) the folder had when its realpath was taken. The stat made at every decision follows every
 * symlink on the way: a folder or a symlink on the way swapped for one to another folder gives
 * another inode, and the realpath is taken again. What the identity cannot see is the same folder
 * reached by another way (a parent renamed and a symlink left where it was): its content is the
 * same folder's, and a name in it is still looked up as a symlink, a secret name or a git config.
 */
const folderReals = new Map<string, { identity: string; real: string }>();
const MAX_FOLDER_REALS = 64;

function realPathByIdentity(dir: string, info: Stats): string {
  const identity = `${info.dev}:${info.ino}:${info.ctimeMs}`;
  const known = folderReals.get(dir);
  if (known?.identity === identity) return known.real;
  const real = realPathNow(dir);
  if (folderReals.size >= MAX_FOLDER_REALS) folderReals.clear();
  folderReals.set(dir, { identity, real });
  return real;
}

/**
 * Whether a listed folder surely holds no entry that `name` opens. Compared in ASCII lower case, as
 * a case-insensitive file system (macOS, a casefolded ext4 folder) opens `KEYS` for `keys`; a
 * listing or a name with other characters is never sure (Unicode folds `K` (Kelvin) to `k`, and
 * normalisation joins others): the folder is looked up.
 */
function holdsNoFolder(facts: FolderFacts | null, name: string): boolean {
  if (!facts?.listing || NOT_ASCII.test(name)) return false;
  if (facts.foldedNames === undefined) facts.foldedNames = foldedNamesOf(facts.listing);
  return facts.foldedNames !== null && !facts.foldedNames.has(name.toLowerCase());
}

const NOT_ASCII = /[^\p{ASCII}]/u;

function foldedNamesOf(listing: readonly string[]): ReadonlySet<string> | null {
  const names = new Set<string>();
  for (const name of listing) {
    if (NOT_ASCII.test(name)) return null;
    names.add(name.toLowerCase());
  }
  return names;
}

function realOrNull(path: string): string | null {
  try {
    return realpathSync.native(path);
  } catch {
    return null;
  }
}

/** A name in a folder by its real path (normalised: no join's walk needed). */
function childPath(folderReal: string, name: string): string {
  return folderReal === sep ? `${sep}${name}` : `${folderReal}${sep}${name}`;
}

function lstatOrNull(path: string): Stats | null {
  try {
    return lstatSync(path, { throwIfNoEntry: false }) ?? null;
  } catch {
    return null;
  }
}

function statOrNull(path: string): Stats | null {
  try {
    return statSync(path, { throwIfNoEntry: false }) ?? null;
  } catch {
    return null;
  }
}

/** A folder's names and which are symlinks; a folder too big to keep has no listing; null if unreadable. */
function listFolder(dir: string): FolderFacts | null {
  const listing: string[] = [];
  const symlinks = new Set<string>();
  let handle: ReturnType<typeof opendirSync> | undefined;
  try {
    // Read in batches and stopped past MAX_NAMES: a huge folder costs no more than a small one.
    // Node looks up an entry whose type the file system does not report (lstat), so a symlink is
    // always seen as one.
    handle = opendirSync(dir, { bufferSize: 256 });
    for (let entry = handle.readSync(); entry !== null; entry = handle.readSync()) {
      if (listing.length >= MAX_NAMES) return { listing: null, symlinks: new Set(), foldedNames: null };
      listing.push(entry.name);
      if (entry.isSymbolicLink()) symlinks.add(entry.name);
    }
  } catch {
    return null;
  } finally {
    try {
      handle?.closeSync();
    } catch {
      // Already closed.
    }
  }
  return { listing, symlinks, foldedNames: undefined };
}
