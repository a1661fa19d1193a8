import {
  closeSync,
  constants,
  type Dirent,
  lstatSync,
  openSync,
  readdirSync,
  readSync,
  realpathSync,
  statSync,
} from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { isWithinDirectory } from '../util/path-within.js';

/**
 * Folders not searched for nested repositories: installed packages, virtual environments, build
 * output and caches (large, and not where a person keeps a repository). A repository the agent's
 * command makes there is neither bound read-only nor cleaned (src/policy/new-git-dirs.ts): git run
 * inside it would use what the command put there.
 */
const SKIPPED_FOLDERS = new Set([
  'node_modules',
  '.venv',
  'venv',
  '__pycache__',
  '.tox',
  '.mypy_cache',
  '.pytest_cache',
  '.next',
  'target',
]);
/** How many folders one search reads at most (a command start must stay cheap in a huge tree). */
const MAX_FOLDERS = 20_000;
/** Folders looked at between two turns of the event loop. */
const BATCH = 256;
/**
 * A folder whose times are this close to the reading (or after it) is read again next time: a name
 * added within the same clock tick of a coarse file system would not move them.
 */
const SETTLE_MS = 1_000;

/** What one reading saw of a folder: enough not to read it again while it has not changed. */
interface SeenFolder {
  /** Its mtime, ctime and inode when read. */
  readonly key: string;
  readonly settled: boolean;
  readonly subfolders: readonly string[];
  /** The git metadata found right in it (its `.git`, and the folder a gitfile or symlink names). */
  readonly found: readonly string[];
  /** Its `.git` is a symlink or a gitfile: where it leads can change while the folder does not. */
  readonly resolves: boolean;
  /** It is itself shaped like a bare repository (`HEAD`, `objects/`, `refs/`): git run in it uses it. */
  readonly bare: boolean;
}

/**
 * The git metadata of the repositories nested in a writable workspace, as it is now: each nested
 * `.git` (a folder, or a gitfile such as a submodule's or a linked worktree's `gitdir: …`), and the
 * real folder a gitfile or a symlinked `.git` points to when that folder is inside one of the
 * writable roots. What is written there runs later, outside any sandbox, when the person uses git
 * in that repository (hooks, `core.fsmonitor`), so the sandbox binds each of them read-only, as it
 * does the top-level `.git`.
 *
 * `root/.git` itself is not listed (the caller protects it). The search skips SKIPPED_FOLDERS and
 * stops after MAX_FOLDERS folders (a repository deeper in a larger tree is not found).
 *
 * Each reading after the first reads again only the folders that changed: a name added, removed or
 * renamed in a folder moves its mtime, so a folder with the same mtime, ctime and inode as last time
 * (and not too recent to tell) has the same entries, and one lstat stands for a readdir. In a
 * 20,000-file repository a reading after every command was most of a step's CPU (tens of
 * milliseconds); a `.git` that is a symlink or a gitfile is resolved again each time.
 */
export class NestedGitWalk {
  private seen = new Map<string, SeenFolder>();
  private bareFolders: string[] = [];

  constructor(
    private readonly root: string,
    private readonly writableRoots: readonly string[],
    /** The clock folders are judged settled on (tests move it). */
    private readonly now: () => number = Date.now,
  ) {}

  async read(): Promise<string[]> {
    const startedMs = this.now();
    const top = resolve(this.root);
    const next = new Map<string, SeenFolder>();
    const found = new Set<string>();
    const bare: string[] = [];
    const queue = [top];
    for (let i = 0; i < queue.length && i < MAX_FOLDERS; i++) {
      const folder = queue[i] as string;
      // Not BigInt stats: on Node 20 they cost half as much again, and the times as fractional
      // milliseconds still move with every change.
      const stat = lstatSync(folder, { throwIfNoEntry: false });
      if (!stat?.isDirectory()) continue;
      const key = `${stat.mtimeMs} ${stat.ctimeMs} ${stat.ino}`;
      let seen = this.seen.get(folder);
      if (seen === undefined || seen.key !== key || !seen.settled || seen.resolves) {
        const settled = stat.mtimeMs + SETTLE_MS < startedMs && stat.ctimeMs + SETTLE_MS < startedMs;
        seen = readFolder(folder, folder === top, key, settled, this.writableRoots);
      }
      next.set(folder, seen);
      for (const path of seen.found) found.add(path);
      if (seen.bare) bare.push(folder);
      queue.push(...seen.subfolders);
      if ((i + 1) % BATCH === 0) await new Promise<void>((done) => setImmediate(done));
    }
    this.seen = next;
    this.bareFolders = bare;
    return [...found];
  }

  /**
   * The folders of the last reading shaped like a bare repository (the top too): not bound read-only
   * (a project's test fixtures are often bare repositories), but git run inside one uses its config
   * and hooks, so a command's changes there are cleaned (src/policy/new-git-dirs.ts).
   */
  bareRepositories(): readonly string[] {
    return this.bareFolders;
  }
}

/** One reading of the whole tree (a NestedGitWalk of its own). */
export function nestedGitPaths(root: string, writableRoots: readonly string[]): Promise<string[]> {
  return new NestedGitWalk(root, writableRoots).read();
}

function readFolder(
  folder: string,
  isTop: boolean,
  key: string,
  settled: boolean,
  writableRoots: readonly string[],
): SeenFolder {
  let entries: Dirent[];
  try {
    entries = readdirSync(folder, { withFileTypes: true });
  } catch {
    // Not readable now: nothing in it counts, and it is read again next time.
    return { key, settled: false, subfolders: [], found: [], resolves: false, bare: false };
  }
  const subfolders: string[] = [];
  const found = new Set<string>();
  let resolves = false;
  let bareParts = 0;
  for (const entry of entries) {
    if (
      (entry.name === 'HEAD' && entry.isFile()) ||
      ((entry.name === 'objects' || entry.name === 'refs') && entry.isDirectory())
    )
      bareParts++;
    const path = join(folder, entry.name);
    if (entry.name === '.git') {
      if (!isTop) {
        addGitEntry(path, entry, writableRoots, found);
        resolves = !entry.isDirectory();
      }
      continue;
    }
    if (entry.isDirectory() && !SKIPPED_FOLDERS.has(entry.name)) subfolders.push(path);
  }
  return { key, settled, subfolders, found: [...found], resolves, bare: bareParts === 3 };
}

function addGitEntry(
  path: string,
  entry: Dirent,
  writableRoots: readonly string[],
  found: Set<string>,
): void {
  const inWritable = (target: string) => writableRoots.some((root) => isWithinDirectory(target, root));
  if (entry.isDirectory()) {
    found.add(path);
    return;
  }
  if (entry.isSymbolicLink()) {
    // The link itself cannot be bound (a bind follows it); what it points to can.
    const target = realTarget(path);
    if (target && inWritable(target)) found.add(target);
    return;
  }
  if (!entry.isFile()) return;
  found.add(path);
  const gitdir = gitfileTarget(path);
  if (gitdir && inWritable(gitdir)) found.add(gitdir);
}

/** The real folder `path` leads to, or null (dangling, not a folder). */
export function realTarget(path: string): string | null {
  try {
    const real = realpathSync(path);
    return statSync(real).isDirectory() ? real : null;
  } catch {
    return null;
  }
}

/** The folder a gitfile (`gitdir: ../.git/modules/x`) names, resolved and real; null if none. */
export function gitfileTarget(path: string): string | null {
  try {
    const text = readHead(path, GITFILE_HEAD_BYTES);
    const match = /^gitdir:\s*(.+?)\s*$/m.exec(text);
    if (!match?.[1]) return null;
    return realTarget(resolve(dirname(path), match[1]));
  } catch {
    return null;
  }
}

/** How much of a gitfile is read: its `gitdir:` line (git itself takes at most 1 MiB). */
const GITFILE_HEAD_BYTES = 4096;

/**
 * The first `max` bytes of a file, without waiting (O_NONBLOCK: a FIFO swapped in since the
 * readdir). A command may make a gitfile of any size (a sparse one costs nothing on disk), and
 * this runs on the event loop at every command: a whole read was seconds and its size in memory.
 */
function readHead(path: string, max: number): string {
  const fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    const buffer = Buffer.alloc(max);
    const read = readSync(fd, buffer, 0, max, 0);
    return buffer.subarray(0, read).toString('utf8');
  } finally {
    closeSync(fd);
  }
}
