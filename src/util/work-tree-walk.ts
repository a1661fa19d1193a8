import { type Dirent, lstatSync, readdirSync } from 'node:fs';
import { resolve } from 'node:path';

/**
 * What one folder holds that the git checks look at: its subfolders (to walk on) and the few names
 * whose presence matters to git. Kept per folder between readings; read again only when the folder
 * changed.
 */
export interface FolderFacts {
  /** Names of the folders in it (not `.git`, not symlinks: git walks neither). */
  readonly subfolders: readonly string[];
  /** What its `.git` entry is, or null when it has none. */
  readonly dotGit: 'folder' | 'file' | 'symlink' | 'other' | null;
  /** The rule files git opens in it that are there (`.gitignore`, `.gitattributes`). */
  readonly ruleFiles: readonly string[];
  /**
   * It is shaped like a bare repository: a `HEAD` file (or symlink) with `objects` and `refs` (folders,
   * or symlinks whatever they lead to), or with a `commondir` (a file or a symlink; git looks for
   * those in the folder it names).
   */
  readonly bare: boolean;
}

/** One folder of a reading, handed to a visitor. */
export interface VisitedFolder {
  /** Its path (under the resolved root). */
  readonly path: string;
  /** Its path relative to the root, `/`-separated; `''` for the root itself. */
  readonly relative: string;
  readonly facts: FolderFacts;
}

/** A reading stopped: the tree holds more folders than its caller let it read. */
export class TooManyFoldersError extends Error {
  constructor(
    readonly root: string,
    readonly maxFolders: number,
  ) {
    super(`${root} holds more than ${maxFolders} folders`);
    this.name = 'TooManyFoldersError';
  }
}

/** Decides something about each folder of a reading (nested repositories, traps for git). */
export type FolderVisitor = (folder: VisitedFolder) => void;

interface SeenFolder {
  /** Its mtime, ctime and inode when read (numbers: a string key cost a third of a reading). */
  readonly mtimeMs: number;
  readonly ctimeMs: number;
  readonly ino: number;
  readonly settled: boolean;
  readonly facts: FolderFacts;
}

/** The rule files git opens in each folder as it walks (`--exclude-standard`, attributes for `add`). */
const RULE_FILES = new Set(['.gitignore', '.gitattributes']);
/** Folders looked at between two turns of the event loop. */
const BATCH = 256;
/**
 * A folder whose times are this close to the reading (or after it) is read again next time: a name
 * added within the same clock tick of a coarse file system would not move them.
 */
const SETTLE_MS = 1_000;

/**
 * A walk of every folder of a work tree, for the checks that must see every `.git` and rule file in
 * it (nested repositories the sandbox binds or cleans, traps for git's own walk). Symlinked folders
 * and what is inside a `.git` are not walked; nothing else is left out, and there is no cap a
 * command could fill to hide something past it.
 *
 * Each reading lstats every folder and reads again only those that changed: a name added, removed or
 * renamed in a folder moves its mtime and ctime (a command can set the mtime back, never the ctime),
 * so a folder with the same mtime, ctime and inode as last time (and not too recent to tell) has
 * the same entries. A folder whose times did not change may still hold one that did: every folder is
 * looked at, not only those under a changed one. A new folder (one moved in included) is read whole.
 */
export class WorkTreeWalk {
  private seen = new Map<string, SeenFolder>();

  constructor(
    readonly root: string,
    /** The clock folders are judged settled on (tests move it). */
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * One reading: each folder, parents before children, is handed to every visitor. Past
   * `maxFolders` folders the reading stops with a TooManyFoldersError (for a caller that must hold
   * a bound; the last complete reading stays the one the next compares with).
   */
  async read(
    visitors: readonly FolderVisitor[],
    options: { signal?: AbortSignal | undefined; maxFolders?: number } = {},
  ): Promise<void> {
    const startedMs = this.now();
    const top = resolve(this.root);
    const under = top.endsWith('/') ? top : `${top}/`;
    const next = new Map<string, SeenFolder>();
    const queue: string[] = [''];
    const maxFolders = options.maxFolders ?? Number.POSITIVE_INFINITY;
    for (let i = 0; i < queue.length; i++) {
      if (i >= maxFolders) throw new TooManyFoldersError(this.root, maxFolders);
      const relative = queue[i] as string;
      const path = relative === '' ? top : `${under}${relative}`;
      // Not BigInt stats: on Node 20 they cost half as much again, and the times as fractional
      // milliseconds still move with every change.
      const stat = lstatSync(path, { throwIfNoEntry: false });
      if (stat?.isDirectory()) {
        const { mtimeMs, ctimeMs, ino } = stat;
        let seen = this.seen.get(relative);
        if (
          seen === undefined ||
          !seen.settled ||
          seen.mtimeMs !== mtimeMs ||
          seen.ctimeMs !== ctimeMs ||
          seen.ino !== ino
        ) {
          const settled = mtimeMs + SETTLE_MS < startedMs && ctimeMs + SETTLE_MS < startedMs;
          seen = { mtimeMs, ctimeMs, ino, ...readFolder(path, settled) };
        }
        next.set(relative, seen);
        const folder = { path, relative, facts: seen.facts };
        for (const visit of visitors) visit(folder);
        for (const name of seen.facts.subfolders) queue.push(relative === '' ? name : `${relative}/${name}`);
      }
      if ((i + 1) % BATCH === 0) {
        await new Promise<void>((done) => setImmediate(done));
        options.signal?.throwIfAborted();
      }
    }
    this.seen = next;
  }
}

function readFolder(path: string, settled: boolean): { settled: boolean; facts: FolderFacts } {
  let entries: Dirent[];
  try {
    entries = readdirSync(path, { withFileTypes: true });
  } catch {
    // Not readable now: nothing in it counts, and it is read again next time.
    return { settled: false, facts: { subfolders: [], dotGit: null, ruleFiles: [], bare: false } };
  }
  const subfolders: string[] = [];
  const ruleFiles: string[] = [];
  let dotGit: FolderFacts['dotGit'] = null;
  let head = false;
  let commondir = false;
  let storeParts = 0;
  for (const entry of entries) {
    const { name } = entry;
    // Git's own test (setup.c, is_git_directory) opens `commondir` and access()es `objects` and
    // `refs`, both through symlinks (and an executable file passes access(X_OK)): any entry by those
    // names counts, without a stat of where a link leads.
    if (name === 'HEAD' && (entry.isFile() || entry.isSymbolicLink())) head = true;
    else if (name === 'commondir' && !entry.isDirectory()) commondir = true;
    else if (name === 'objects' || name === 'refs') storeParts++;
    if (name === '.git') {
      // git never walks into a `.git`, whatever it is.
      dotGit = entry.isDirectory()
        ? 'folder'
        : entry.isFile()
          ? 'file'
          : entry.isSymbolicLink()
            ? 'symlink'
            : 'other';
      continue;
    }
    if (RULE_FILES.has(name)) ruleFiles.push(name);
    if (entry.isDirectory()) subfolders.push(name);
  }
  const bare = head && (storeParts === 2 || commondir);
  return { settled, facts: { subfolders, dotGit, ruleFiles, bare } };
}
