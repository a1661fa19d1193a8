import type { BigIntStats } from 'node:fs';
import { readdir, realpath, stat } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { realPathOf } from './real-path.js';

/**
 * What is known of a folder's entries while the folder is unchanged, by its identity (device,
 * inode, modification and change times in ns): the names that are no symlink there (missing, or a
 * plain entry), and its listing. Creating, removing or renaming an entry — a symlink swapped in —
 * changes the folder's times, so a key that still matches is the folder as it was seen.
 */
interface FolderFacts {
  readonly plainNames: Set<string>;
  listing?: readonly string[];
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
 * (its realpath and its identity, asked at once). A name seen before in the
 * unchanged folder as no symlink is that folder's real path plus the name, without asking again;
 * any other name is resolved. A symlink swapped in changes the folder, so the next decision sees it.
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
    const listing = await readdir(dir).catch(() => [] as string[]);
    if (folder.facts) folder.facts.listing = listing;
    return listing;
  }

  private async resolveNow(absolute: string): Promise<string> {
    const parent = dirname(absolute);
    if (parent === absolute) return realpath(absolute).catch(() => absolute);
    const folder = await this.folder(parent);
    const name = basename(absolute);
    const plain = join(folder.real, name);
    if (folder.facts?.plainNames.has(name)) return plain;
    // Missing: the folder's real path plus the name (as realPathOf works it out).
    const real = await realpath(absolute).catch(() => plain);
    if (real === plain && folder.facts && folder.facts.plainNames.size < MAX_NAMES) {
      folder.facts.plainNames.add(name);
    }
    return real;
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
    if (!info?.isDirectory() || Number(info.ctimeNs / 1_000_000n) >= this.started - SETTLED_MS) {
      return { real, facts: null };
    }
    const key = folderKey(info);
    let facts = folders.get(key);
    if (facts) folders.delete(key);
    else facts = { plainNames: new Set() };
    // Most recently used last: the oldest folder is the one dropped.
    folders.set(key, facts);
    if (folders.size > MAX_FOLDERS) {
      const oldest = folders.keys().next().value;
      if (oldest !== undefined) folders.delete(oldest);
    }
    return { real, facts };
  }
}
