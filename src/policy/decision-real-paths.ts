import type { BigIntStats } from 'node:fs';
import { opendir, readdir, realpath, stat } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { realPathOf } from './real-path.js';

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
}
const folders = new Map<string, FolderFacts>();
const MAX_FOLDERS = 64;
const MAX_NAMES = 4096;
/**
 * A folder changed less than this long before is not remembered: file times tick coarsely (a
 * jiffy, up to 10 ms), so a second change in the same tick would keep the key ("racy git").
 */
const SETTLED_MS = 50;

function folderKey(info: BigIntStats): string {
  return `${info.dev}:${info.ino}:${info.mtimeNs}:${info.ctimeNs}`;
}

/** A folder as one decision sees it: its real path, and its remembered facts when it is settled. */
interface Folder {
  readonly real: string;
  readonly facts: FolderFacts | null;
}

/**
 * Real paths of the files the words of one decision name, each folder resolved once per decision
 * (its realpath and its identity, asked at once). In a settled folder listed before and unchanged
 * since, a name that is no symlink there (or missing) is the folder's real path plus the name, with
 * no look-up; a symlink is resolved. A symlink swapped in changes the folder, so the next decision
 * lists it again. In a folder just changed, every name is resolved.
 */
export class DecisionRealPaths {
  private readonly folderOf = new Map<string, Promise<Folder>>();
  private readonly reals = new Map<string, Promise<string>>();
  private readonly started: number;

  constructor(now: () => number = Date.now) {
    this.started = now();
  }

  of(path: string): Promise<string> {
    const absolute = resolve(path);
    let real = this.reals.get(absolute);
    if (!real) {
      real = this.resolveNow(absolute);
      this.reals.set(absolute, real);
    }
    return real;
  }

  /** The names in a folder (for a glob), from the remembered listing when the folder is unchanged. */
  async list(dir: string): Promise<readonly string[]> {
    const folder = await this.folder(resolve(dir));
    if (folder.facts?.listing) return folder.facts.listing;
    return readdir(dir).catch(() => [] as string[]);
  }

  private async resolveNow(absolute: string): Promise<string> {
    const parent = dirname(absolute);
    if (parent === absolute) return realpath(absolute).catch(() => absolute);
    const folder = await this.folder(parent);
    const name = basename(absolute);
    const plain = join(folder.real, name);
    const facts = folder.facts;
    if (facts?.listing && !facts.symlinks.has(name)) return plain;
    // Missing: the folder's real path plus the name (as realPathOf works it out).
    return realpath(absolute).catch(() => plain);
  }

  private folder(dir: string): Promise<Folder> {
    let found = this.folderOf.get(dir);
    if (!found) {
      found = this.lookUpFolder(dir);
      this.folderOf.set(dir, found);
    }
    return found;
  }

  private async lookUpFolder(dir: string): Promise<Folder> {
    // Both at once: a folder swapped between the two answers is the race any check before a
    // command runs has (the shell resolves the path again when it runs).
    const [real, info] = await Promise.all([realPathOf(dir), stat(dir, { bigint: true }).catch(() => null)]);
    if (!info?.isDirectory() || !this.isSettled(info)) return { real, facts: null };
    const key = folderKey(info);
    let facts = folders.get(key);
    if (facts) folders.delete(key);
    else {
      const listed = await listFolder(dir);
      // Kept only if the folder did not change while it was listed (its key is the one listed).
      const after = await stat(dir, { bigint: true }).catch(() => null);
      if (!listed || !after || folderKey(after) !== key) return { real, facts: null };
      facts = listed;
    }
    // Most recently used last: the oldest folder is the one dropped.
    folders.set(key, facts);
    if (folders.size > MAX_FOLDERS) {
      const oldest = folders.keys().next().value;
      if (oldest !== undefined) folders.delete(oldest);
    }
    return { real, facts };
  }

  private isSettled(info: BigIntStats): boolean {
    return Number(info.ctimeNs / 1_000_000n) < this.started - SETTLED_MS;
  }
}

/** A folder's names and which are symlinks; a folder too big to keep has no listing; null if unreadable. */
async function listFolder(dir: string): Promise<FolderFacts | null> {
  const listing: string[] = [];
  const symlinks = new Set<string>();
  try {
    // Read in batches and stopped past MAX_NAMES (leaving the loop closes the folder): a huge
    // folder costs no more than a small one. Node looks up an entry whose type the file system
    // does not report (lstat), so a symlink is always seen as one.
    for await (const entry of await opendir(dir, { bufferSize: 256 })) {
      if (listing.length >= MAX_NAMES) return { listing: null, symlinks: new Set() };
      listing.push(entry.name);
      if (entry.isSymbolicLink()) symlinks.add(entry.name);
    }
  } catch {
    return null;
  }
  return { listing, symlinks };
}
