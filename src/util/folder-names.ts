import { readdirSync, statSync } from 'node:fs';

/** One folder's names as last listed, with the stamps they were listed under. */
interface Listing {
  readonly mtimeMs: number;
  readonly ctimeMs: number;
  readonly ino: number;
  readonly names: ReadonlySet<string>;
}

/**
 * A folder whose times are this close to the listing (or after it) is listed again next time: a
 * name added within the same clock tick of a coarse file system would not move them.
 */
const SETTLE_MS = 1_000;
/** Folders kept at most (a home and the few folders of it a check looks into). */
const MAX_FOLDERS = 64;

/**
 * The names in a few folders looked at for every command (the home, `~/.config`), listed again
 * only when the folder changed: a name added, removed or renamed moves its mtime and ctime (a
 * command can set the mtime back, never the ctime), so a folder with the same times and inode as
 * when it was listed (and not too recent to tell) holds the same names. One stat instead of a
 * readdir of a home of a hundred entries. Through a symlink, as readdir goes: what a re-pointed
 * link leads to has another inode.
 */
export class FolderNames {
  private readonly listings = new Map<string, Listing>();

  constructor(
    /** The clock folders are judged settled on (tests move it). */
    private readonly now: () => number = Date.now,
  ) {}

  /** The names in `dir` now; null when it is no folder or cannot be listed. */
  of(dir: string): ReadonlySet<string> | null {
    let stat: ReturnType<typeof statSync>;
    try {
      stat = statSync(dir, { throwIfNoEntry: false });
    } catch {
      stat = undefined;
    }
    if (!stat?.isDirectory()) {
      this.listings.delete(dir);
      return null;
    }
    const { mtimeMs, ctimeMs, ino } = stat;
    const known = this.listings.get(dir);
    if (known !== undefined && known.mtimeMs === mtimeMs && known.ctimeMs === ctimeMs && known.ino === ino)
      return known.names;
    let names: ReadonlySet<string>;
    try {
      names = new Set(readdirSync(dir));
    } catch {
      this.listings.delete(dir);
      return null;
    }
    const now = this.now();
    if (mtimeMs + SETTLE_MS < now && ctimeMs + SETTLE_MS < now) {
      if (this.listings.size >= MAX_FOLDERS) this.listings.clear();
      this.listings.set(dir, { mtimeMs, ctimeMs, ino, names });
    } else this.listings.delete(dir);
    return names;
  }
}
