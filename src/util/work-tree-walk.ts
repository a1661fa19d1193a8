import { type Dirent, lstatSync, readdirSync, readlinkSync } from 'node:fs';
import { resolve } from 'node:path';

/**
 * What one folder holds that the checks of a work tree look at: its subfolders (to walk on), the few
 * names whose presence matters to git, and the files a walk was asked to note (secret files by name).
 * Kept per folder between readings; read again only when the folder changed.
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
  /** How many entries it holds, of every kind (`.git` included). */
  readonly entries: number;
  /** The regular files (not symlinks) in it the walk's NotedFiles picked, by name. */
  readonly notedFiles: readonly string[];
  /**
   * The other regular files (not symlinks) in it, by name, in the folders NotedFiles looks at (none
   * elsewhere): what a scan of the files' content reads (sandbox-token-files.ts).
   */
  readonly otherFiles: readonly string[];
  /**
   * Where each symlink in it points (readlink's text), in the folders NotedFiles looks at (none
   * elsewhere): read once while the folder is unchanged (a link swapped in changes the folder).
   */
  readonly notedLinks: readonly (readonly [name: string, target: string])[];
}

/** One folder of a reading, handed to a visitor. */
export interface VisitedFolder {
  /** Its path (under the resolved root). */
  readonly path: string;
  /** Its path relative to the root, `/`-separated; `''` for the root itself. */
  readonly relative: string;
  /** How many folders below the root it is (the root is 0). */
  readonly depth: number;
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

/**
 * What a visitor wants of the folders below the one it was handed: all of them (nothing returned),
 * those whose name `enter` accepts, none below this one, or nothing more of this reading at all.
 * A folder is read when at least one visitor wants it, and handed to those that do.
 */
export type Descent = undefined | 'none' | 'stop' | ((name: string) => boolean);

/** Decides something about each folder of a reading (nested repositories, traps for git, secret files). */
export type FolderVisitor = (folder: VisitedFolder) => Descent;

/**
 * Which files of a folder a walk notes in its facts (FolderFacts.notedFiles): for the folder at
 * `relative`, a test of a file's name, or null for none there. Asked when a folder is read, so the
 * answer for a path must not change between readings (its facts are kept).
 */
export type NotedFiles = (relative: string) => ((name: string) => boolean) | null;

/** A folder that could not be looked at (its lstat failed, other than missing): left out of a reading. */
export interface UnreadFolder {
  readonly path: string;
  readonly error: unknown;
}

/** A folder as last read, with what was kept of the folders under it. */
interface SeenFolder {
  /** Its mtime, ctime and inode when read (numbers: a string key cost a third of a reading). */
  readonly mtimeMs: number;
  readonly ctimeMs: number;
  readonly ino: number;
  readonly settled: boolean;
  readonly facts: FolderFacts;
  /** Its subfolders as last read (or kept, when a reading did not enter them), by name. */
  readonly below: Map<string, SeenFolder>;
}

/** A folder a reading will look at, with where it goes in the new tree and what was known of it. */
interface QueuedFolder {
  readonly relative: string;
  readonly name: string;
  readonly depth: number;
  /** The visitors that want it, one bit each. */
  readonly wanted: number;
  /** The new tree's folder above it (null for the root). */
  readonly above: Map<string, SeenFolder> | null;
  readonly known: SeenFolder | undefined;
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
/** Visitors one reading can hand folders to (one bit each). */
export const MAX_VISITORS = 30;

/**
 * A walk of the folders of a work tree, for the checks that must see every `.git` and rule file in
 * it (nested repositories the sandbox binds or cleans, traps for git's own walk) and for those that
 * leave some out (the secret files, not looked for in installed packages). Symlinked folders and
 * what is inside a `.git` are not walked; nothing else is left out unless every visitor leaves it
 * out, and there is no cap a command could fill to hide something past it.
 *
 * Each reading lstats every folder it enters and reads again only those that changed: a name added,
 * removed or renamed in a folder moves its mtime and ctime (a command can set the mtime back, never
 * the ctime), so a folder with the same mtime, ctime and inode as last time (and not too recent to
 * tell) has the same entries. A folder whose times did not change may still hold one that did: every
 * folder is looked at, not only those under a changed one. A new folder (one moved in included) is
 * read whole. What a reading did not enter is kept as it was for the next.
 */
export class WorkTreeWalk {
  private top: SeenFolder | undefined;

  constructor(
    readonly root: string,
    /** The clock folders are judged settled on (tests move it). */
    private readonly now: () => number = Date.now,
    /** The files each folder's facts note (none when not given). */
    readonly notedFiles?: NotedFiles,
  ) {}

  /**
   * One reading: each folder, parents before children (breadth first), is handed to every visitor
   * that wants it (with no visitor, every folder is read). Past `maxFolders` folders the reading
   * stops with a TooManyFoldersError (for a caller that must hold a bound; the last complete reading
   * stays the one the next compares with). A folder whose lstat fails (other than missing) fails the
   * reading, unless `unread` is given: then it is left out and said to it.
   */
  async read(
    visitors: readonly FolderVisitor[],
    options: {
      signal?: AbortSignal | undefined;
      maxFolders?: number;
      unread?: (folder: UnreadFolder) => void;
    } = {},
  ): Promise<void> {
    if (visitors.length > MAX_VISITORS)
      throw new RangeError(`at most ${MAX_VISITORS} visitors in one reading`);
    if (visitors.length === 0) visitors = [EVERY_FOLDER];
    const startedMs = this.now();
    const rootPath = resolve(this.root);
    const under = rootPath.endsWith('/') ? rootPath : `${rootPath}/`;
    let top: SeenFolder | undefined;
    const queue: QueuedFolder[] = [
      { relative: '', name: '', depth: 0, wanted: (1 << visitors.length) - 1, above: null, known: this.top },
    ];
    const maxFolders = options.maxFolders ?? Number.POSITIVE_INFINITY;
    /** The visitors that want nothing more of this reading, one bit each. */
    let stopped = 0;
    for (let i = 0; i < queue.length; i++) {
      if (i >= maxFolders) throw new TooManyFoldersError(this.root, maxFolders);
      const queued = queue[i] as QueuedFolder;
      const { relative, name, above, known } = queued;
      const live = queued.wanted & ~stopped;
      const path = relative === '' ? rootPath : `${under}${relative}`;
      // Every visitor that wanted it is done: kept as it was.
      const seen = live === 0 ? known : this.lookAt(path, relative, known, startedMs, options.unread);
      if (above === null) top = seen;
      else if (seen !== undefined) above.set(name, seen);
      if (live !== 0 && seen !== undefined) {
        const folder: VisitedFolder = { path, relative, depth: queued.depth, facts: seen.facts };
        const wants = new FolderWants();
        for (let v = 0; v < visitors.length; v++)
          if ((live & (1 << v)) !== 0) wants.add(1 << v, (visitors[v] as FolderVisitor)(folder));
        stopped |= wants.stopped;
        for (const sub of seen.facts.subfolders) {
          const wanted = wants.of(sub) & ~stopped;
          const knownSub = known?.below.get(sub);
          if (wanted !== 0)
            queue.push({
              relative: relative === '' ? sub : `${relative}/${sub}`,
              name: sub,
              depth: queued.depth + 1,
              wanted,
              above: seen.below,
              known: knownSub,
            });
          // Not entered this time: what was known of it stays for the next reading that does.
          else if (knownSub !== undefined) seen.below.set(sub, knownSub);
        }
      }
      if ((i + 1) % BATCH === 0) {
        await new Promise<void>((done) => setImmediate(done));
        options.signal?.throwIfAborted();
      }
    }
    this.top = top;
  }

  /**
   * The folder at `path` now: what was known of it while it is unchanged, else read now; undefined
   * when it is no folder (gone, a file, a symlink) or could not be looked at (then said to `unread`,
   * or thrown when there is none to say it to).
   */
  private lookAt(
    path: string,
    relative: string,
    known: SeenFolder | undefined,
    startedMs: number,
    unread: ((folder: UnreadFolder) => void) | undefined,
  ): SeenFolder | undefined {
    let stat: ReturnType<typeof lstatSync>;
    try {
      // Not BigInt stats: on Node 20 they cost half as much again, and the times as fractional
      // milliseconds still move with every change.
      stat = lstatSync(path, { throwIfNoEntry: false });
    } catch (error) {
      if (unread === undefined) throw error;
      unread({ path, error });
      return undefined;
    }
    if (!stat?.isDirectory()) return undefined;
    const { mtimeMs, ctimeMs, ino } = stat;
    const same =
      known?.settled === true && known.mtimeMs === mtimeMs && known.ctimeMs === ctimeMs && known.ino === ino;
    const facts = same ? known.facts : readFolder(path, this.notedFiles?.(relative) ?? null);
    const settled = same || (mtimeMs + SETTLE_MS < startedMs && ctimeMs + SETTLE_MS < startedMs);
    return {
      mtimeMs,
      ctimeMs,
      ino,
      // Not readable now: nothing in it counts, and it is read again next time.
      settled: settled && facts !== UNREADABLE,
      facts,
      // Written only for its subfolders: one shared empty map for a folder with none.
      below: facts.subfolders.length > 0 ? new Map() : NO_FOLDERS,
    };
  }
}

/** What the visitors of one folder want below it, one bit each. */
class FolderWants {
  /** Those that want every subfolder. */
  private all = 0;
  /** Those that want some, each with its test. */
  private readonly some: { bit: number; enter: (name: string) => boolean }[] = [];
  /** Those that want nothing more of the reading. */
  stopped = 0;

  add(bit: number, descent: Descent): void {
    if (descent === undefined) this.all |= bit;
    else if (descent === 'stop') this.stopped |= bit;
    else if (descent !== 'none') this.some.push({ bit, enter: descent });
  }

  /** The visitors that want the subfolder `name`. */
  of(name: string): number {
    let wanted = this.all;
    for (const { bit, enter } of this.some) if (enter(name)) wanted |= bit;
    return wanted;
  }
}

/** The visitor of a reading given none: every folder. */
const EVERY_FOLDER: FolderVisitor = () => undefined;
/** The folders below a folder that has none (never written). */
const NO_FOLDERS: Map<string, SeenFolder> = new Map();

/** The facts of a folder that could not be listed: nothing in it counts. */
const UNREADABLE: FolderFacts = {
  subfolders: [],
  dotGit: null,
  ruleFiles: [],
  bare: false,
  entries: 0,
  notedFiles: [],
  otherFiles: [],
  notedLinks: [],
};

function readFolder(path: string, noted: ((name: string) => boolean) | null): FolderFacts {
  let entries: Dirent[];
  try {
    entries = readdirSync(path, { withFileTypes: true });
  } catch {
    return UNREADABLE;
  }
  const subfolders: string[] = [];
  const ruleFiles: string[] = [];
  const notedFiles: string[] = [];
  const otherFiles: string[] = [];
  const notedLinks: [string, string][] = [];
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
    else if (noted !== null && entry.isFile()) (noted(name) ? notedFiles : otherFiles).push(name);
    else if (noted !== null && entry.isSymbolicLink()) {
      const target = linkText(`${path}/${name}`);
      if (target !== null) notedLinks.push([name, target]);
    }
  }
  const bare = head && (storeParts === 2 || commondir);
  return { subfolders, dotGit, ruleFiles, bare, entries: entries.length, notedFiles, otherFiles, notedLinks };
}

function linkText(path: string): string | null {
  try {
    return readlinkSync(path);
  } catch {
    return null;
  }
}
