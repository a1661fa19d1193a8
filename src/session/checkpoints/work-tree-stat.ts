import { type BigIntStats, lstatSync, readdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

/**
 * A stat picture of a recorded folder, so a record whose folder did not change at all starts no git
 * process (`git ls-files` was one per record, on every step after a side-effecting tool).
 *
 * The picture holds, for every entry under the folder except its own `.git`, the type, size, mode,
 * inode, mtime and ctime (nanoseconds; of a folder its mode and inode), plus the same of the files that decide what git ignores
 * outside the folder (`.git/info/exclude`, the user's global ignore file). Ignored files are in the
 * picture too: a change to one only makes the store ask git, which is what it did before. Two equal
 * pictures mean git would find nothing to record.
 *
 * Trust needs care where timestamps are coarse: a file written within the same clock tick as the
 * picture was taken, and written again in that tick with the same size, would look unchanged. An
 * entry whose mtime or ctime is that recent makes the picture untrusted, and the next record asks
 * git, as it always did.
 */
export interface WorkTreeStat {
  /** `path → "type size mode ino mtime ctime"`, in walk order. */
  readonly entries: ReadonlyMap<string, string>;
}

/**
 * Above this many entries a folder is left to git alone: a walk costs about 5 µs of CPU per entry
 * (more than `git ls-files`, which stats in C), so it pays only for small trees (ignored folders
 * such as node_modules count: the walk does not know what git ignores).
 */
export const MAX_STAT_ENTRIES = 2_000;

/** How many entries are stat'ed between two turns of the event loop. */
const BATCH = 256;

/**
 * A file's timestamps this close to the walk (or after it) cannot be trusted to show a later change:
 * a clock tick of the file system is 1 to 10 ms (ns). A folder's are not needed: its names are read.
 */
export const RACY_NS = 30_000_000n;

/**
 * A folder is known by its mode and inode alone: what changes in it is in the picture as its entries
 * (a name added, removed or renamed; a file's own stat). Its times and size change with entries git
 * never sees (a temporary file a command made and removed, the sandbox's empty `.kimi-ts`
 * placeholder); each cost a git process.
 */
export const statKey = (s: BigIntStats): string => {
  if (s.isDirectory()) return `d ${s.mode} ${s.ino}`;
  const type = s.isFile() ? 'f' : s.isSymbolicLink() ? 'l' : 'o';
  return `${type} ${s.size} ${s.mode} ${s.ino} ${s.mtimeNs} ${s.ctimeNs}`;
};

/** Ignore files outside the folder that git consults (`--exclude-standard`). */
function ignoreFilesOf(root: string): string[] {
  const xdg = process.env.XDG_CONFIG_HOME || join(process.env.HOME || homedir(), '.config');
  return [join(root, '.git', 'info', 'exclude'), join(xdg, 'git', 'ignore')];
}

/**
 * Takes the picture of `root`, yielding to the event loop between batches: `untrusted` when an entry
 * is too recent or something could not be read, `too-big` past MAX_STAT_ENTRIES entries.
 */
export async function statWorkTree(
  root: string,
  signal?: AbortSignal,
): Promise<WorkTreeStat | 'untrusted' | 'too-big'> {
  const startedNs = BigInt(Date.now()) * 1_000_000n;
  const entries = new Map<string, string>();
  for (const file of ignoreFilesOf(root)) {
    const s = lstatSync(file, { bigint: true, throwIfNoEntry: false });
    entries.set(`\0${file}`, s ? statKey(s) : 'none');
  }
  const rootStat = lstatSync(root, { bigint: true, throwIfNoEntry: false });
  if (!rootStat?.isDirectory()) return 'untrusted';
  entries.set('', statKey(rootStat));
  const folders = [''];
  let sinceYield = 0;
  let racy = false;
  while (folders.length > 0) {
    const folder = folders.pop() as string;
    let names: string[];
    try {
      names = readdirSync(join(root, folder));
    } catch {
      return 'untrusted';
    }
    for (const name of names) {
      if (folder === '' && name === '.git') continue;
      const path = folder === '' ? name : `${folder}/${name}`;
      const s = lstatSync(join(root, path), { bigint: true, throwIfNoEntry: false });
      if (!s) return 'untrusted';
      if (!s.isDirectory() && (s.mtimeNs + RACY_NS >= startedNs || s.ctimeNs + RACY_NS >= startedNs))
        racy = true;
      entries.set(path, statKey(s));
      if (s.isDirectory()) folders.push(path);
      if (entries.size > MAX_STAT_ENTRIES) return 'too-big';
      if (++sinceYield >= BATCH) {
        sinceYield = 0;
        await new Promise<void>((resolve) => setImmediate(resolve));
        signal?.throwIfAborted();
      }
    }
  }
  return racy ? 'untrusted' : { entries };
}

/** Whether two pictures are the same (nothing was added, removed or changed). */
export function sameWorkTree(a: WorkTreeStat, b: WorkTreeStat): boolean {
  if (a.entries.size !== b.entries.size) return false;
  for (const [path, value] of a.entries) if (b.entries.get(path) !== value) return false;
  return true;
}
