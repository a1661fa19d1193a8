import { type Dirent, lstatSync, readdirSync, readlinkSync } from 'node:fs';
import { join } from 'node:path';
import { INSTALLED_CODE_FOLDERS } from '../util/installed-code-folders.js';
import { isWithinDirectory } from '../util/path-within.js';
import { archiveKind } from './archive-secret-members.js';
import { fileSecretContentReason, secretsFoundByContent } from './secret-content.js';
import { secretNameReason } from './secret-file-names.js';
import { SecretWalkOtherNames, type WalkedLink } from './secret-walk-other-names.js';

/**
 * Folders the walk does not enter: installed dependencies and vendored code (a package's own
 * `.env.test` or `test/fixtures/key.pem` are not the person's secrets, and `node_modules` alone can
 * hold more entries than the whole bound), virtual environments and caches. `.git` is not entered
 * either (objects, not files anyone reads by name), but its `config` is looked at for a credential.
 */
export const SECRET_WALK_SKIPPED_FOLDERS: ReadonlySet<string> = new Set([
  ...INSTALLED_CODE_FOLDERS,
  'bower_components',
  'jspm_packages',
  'vendor',
  '.gradle',
  '.yarn',
  '.pnpm-store',
]);

/** How far a walk goes: past either bound, what it found so far is hidden and the bound is said. */
export interface SecretWalkBounds {
  /** Folder depth below the root (the root is 0). */
  readonly maxDepth: number;
  /** Directory entries looked at, over all folders. */
  readonly maxEntries: number;
  /**
   * Secret files found: each is one more mount for every command (~0.2 ms) and one more descriptor
   * of its launch (sandbox-bind-fds.ts allows 1,000 in all), so a tree of test keys and certificates
   * must not make every command slow or refused.
   */
  readonly maxFiles: number;
}

export const SECRET_WALK_BOUNDS: SecretWalkBounds = { maxDepth: 16, maxEntries: 50_000, maxFiles: 256 };

/** One walk's findings under a root. */
export interface SecretWalk {
  /**
   * Regular files secret by name or by content, absolute, and the other names they are read by (the
   * target of a secret-named symlink, a hard link's other names: secret-walk-other-names.ts).
   */
  readonly files: readonly string[];
  /** Null when the whole tree (but the skipped folders) was read; else the bound that was hit. */
  readonly boundHit: 'depth' | 'entries' | 'files' | null;
}

/** Folders looked at between two turns of the event loop. */
const BATCH = 128;

/**
 * The secret files of a workspace root (a real path): by name (secret-file-names.ts, the one list),
 * each `.git/config` that holds a credential, and the files under the root that content scans of this
 * process found secret. Entries are typed as readdir gives them (lstat's type): a symlink named
 * `.env` is not a file here, and a folder named `.env` is walked like any other.
 */
export function walkSecretFiles(
  root: string,
  bounds: SecretWalkBounds = SECRET_WALK_BOUNDS,
): Promise<SecretWalk> {
  return new SecretFilesWalk(root, bounds).read();
}

/** What the walk keeps of one folder: read again only when the folder changed. */
interface FolderListing {
  readonly mtimeMs: number;
  readonly ctimeMs: number;
  readonly ino: number;
  /** Its times were far enough before the reading that a later change moves them. */
  readonly settled: boolean;
  readonly entries: number;
  readonly subfolders: readonly string[];
  readonly secretNames: readonly string[];
  /**
   * Symlinks with where they point (read once while the folder is unchanged: a link swapped changes
   * it), whatever they point at, and archives (secret-walk-other-names.ts judges them).
   */
  readonly links: readonly (readonly [name: string, target: string])[];
  readonly archives: readonly string[];
  readonly hasGitFolder: boolean;
}

/**
 * A folder whose times are this close to the reading (or after it) is read again next time: a name
 * added within the same clock tick of a coarse file system would not move them.
 */
const SETTLE_MS = 1_000;

/**
 * The walk of one root, kept between readings (one at each turn and after each command): each
 * reading lstats every folder it enters and lists again only those that changed. A name added,
 * removed or renamed in a folder moves its mtime and ctime (a command can set the mtime back, never
 * the ctime), so a folder with the same times and inode as last time (and not too recent to tell)
 * holds the same names. A tree of 4,000 entries costs ~5 ms of CPU to list, its 180 lstats ~0.3 ms.
 */
export class SecretFilesWalk {
  private seen = new Map<string, FolderListing>();
  private readonly otherNames: SecretWalkOtherNames;

  constructor(
    readonly root: string,
    private readonly bounds: SecretWalkBounds = SECRET_WALK_BOUNDS,
    /** The clock folders are judged settled on (tests move it). */
    private readonly now: () => number = Date.now,
  ) {
    this.otherNames = new SecretWalkOtherNames(root, bounds);
  }

  async read(): Promise<SecretWalk> {
    const { bounds } = this;
    const files: string[] = [];
    const gitConfigs: string[] = [];
    const links: WalkedLink[] = [];
    const archives: string[] = [];
    let boundHit: SecretWalk['boundHit'] = null;
    let entries = 0;
    const next = new Map<string, FolderListing>();
    const queue: { path: string; depth: number }[] = [{ path: this.root, depth: 0 }];
    // Not in the caller's stretch: a turn's request or a command's result goes out first.
    await new Promise<void>((done) => setImmediate(done));
    const startedMs = this.now();
    walk: for (let i = 0; i < queue.length; i++) {
      const { path, depth } = queue[i] as { path: string; depth: number };
      const listing = this.listingOf(path, startedMs);
      if (listing === null) continue;
      next.set(path, listing);
      entries += listing.entries;
      if (entries > bounds.maxEntries) {
        boundHit = 'entries';
        break;
      }
      if (listing.hasGitFolder) gitConfigs.push(join(path, '.git', 'config'));
      for (const [name, target] of listing.links) links.push({ path: join(path, name), target });
      for (const name of listing.archives) archives.push(join(path, name));
      for (const name of listing.secretNames) {
        if (files.length >= bounds.maxFiles) {
          boundHit = 'files';
          break walk;
        }
        files.push(join(path, name));
      }
      if (listing.subfolders.length > 0 && depth + 1 > bounds.maxDepth) boundHit ??= 'depth';
      else for (const name of listing.subfolders) queue.push({ path: join(path, name), depth: depth + 1 });
      if ((i + 1) % BATCH === 0) await new Promise<void>((done) => setImmediate(done));
    }
    this.seen = next;
    // Past the files' bound, these still count (few, and the ones a name cannot tell).
    for (const config of gitConfigs)
      if (isRegularFile(config) && (await fileSecretContentReason(config)) !== null) files.push(config);
    const named = new Set(files);
    for (const found of secretsFoundByContent())
      if (isWithinDirectory(found, this.root) && !named.has(found) && isRegularFile(found)) files.push(found);
    files.push(...(await this.otherNames.find({ files, links, archives, folders: next })));
    return { files, boundHit };
  }

  /** The folder's listing: the last one while it is unchanged, else read now; null when no folder. */
  private listingOf(path: string, startedMs: number): FolderListing | null {
    let stat: ReturnType<typeof lstatSync>;
    try {
      stat = lstatSync(path, { throwIfNoEntry: false });
    } catch {
      return null;
    }
    if (!stat?.isDirectory()) return null;
    const { mtimeMs, ctimeMs, ino } = stat;
    const known = this.seen.get(path);
    if (known?.settled && known.mtimeMs === mtimeMs && known.ctimeMs === ctimeMs && known.ino === ino)
      return known;
    let listed: Dirent[];
    try {
      listed = readdirSync(path, { withFileTypes: true });
    } catch {
      return null;
    }
    const subfolders: string[] = [];
    const secretNames: string[] = [];
    const links: [string, string][] = [];
    const archives: string[] = [];
    let hasGitFolder = false;
    for (const entry of listed) {
      const { name } = entry;
      if (entry.isDirectory()) {
        if (name === '.git') hasGitFolder = true;
        else if (!SECRET_WALK_SKIPPED_FOLDERS.has(name)) subfolders.push(name);
      } else if (entry.isFile()) {
        if (secretNameReason(name) !== null) secretNames.push(name);
        else if (archiveKind(name) !== null) archives.push(name);
      } else if (entry.isSymbolicLink()) {
        const target = linkText(join(path, name));
        if (target !== null) links.push([name, target]);
      }
    }
    const settled = mtimeMs + SETTLE_MS < startedMs && ctimeMs + SETTLE_MS < startedMs;
    const entries = listed.length;
    return {
      mtimeMs,
      ctimeMs,
      ino,
      settled,
      entries,
      subfolders,
      secretNames,
      links,
      archives,
      hasGitFolder,
    };
  }
}

function linkText(path: string): string | null {
  try {
    return readlinkSync(path);
  } catch {
    return null;
  }
}

/** Whether `path` is a regular file itself (not a symlink to one). */
export function isRegularFile(path: string): boolean {
  try {
    return lstatSync(path, { throwIfNoEntry: false })?.isFile() === true;
  } catch {
    return false;
  }
}
