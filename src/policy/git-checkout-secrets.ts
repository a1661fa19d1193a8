import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { basename, isAbsolute, join, relative, resolve } from 'node:path';
import { runGitProcess } from '../util/git-process.js';
import type { CheckoutComparison } from './git-store-read-kinds.js';
import { judgeStoredObjects, storedObjectReason } from './git-store-secrets.js';
import type { GitRepoPlace } from './git-store-state.js';
import { secretNameReason } from './secret-file-names.js';

/** What a command compares of the work tree, the index and HEAD, for which paths. */
export interface CheckoutReads {
  readonly compares: readonly CheckoutComparison[];
  /** Paths as the command names them, relative to `base`; null for every path. */
  readonly paths: readonly string[] | null;
  /** The folder the command's paths are relative to (its folder, after `-C`). */
  readonly base: string;
}

/**
 * Why a command that prints only files of the index and HEAD where they differ (`git diff`, `git
 * diff --cached`, `git diff HEAD`, `git status -v`) may hand over a secret, or null: a file it prints
 * (of the paths it names) holds one, or is secret by its name. A token in a file the history holds
 * but the index and HEAD do not (an old fixture, a leak removed since), or in a file unchanged on
 * both sides compared (a test fixture nobody touched), is not printed. The object store must have
 * been scanned first (git-store-secrets.ts): its verdicts on object ids are looked up here.
 *
 * What the index and HEAD hold is listed by git (`ls-files -s --debug`, `ls-tree -r HEAD`) only when
 * the index file or HEAD (its ref, packed-refs) changed since; otherwise the answer costs a stat of
 * each secret entry's work-tree file (usually none). The work tree's own changed files are not read
 * here (README: not seen).
 */
export function checkoutSecretReason(
  place: GitRepoPlace,
  reads: CheckoutReads,
): string | null | Promise<string | null> {
  const kept = checkouts.get(place.gitDir) ?? newCheckout(place.gitDir);
  const index = sideOf(kept, 'index', indexStamp(place), place, INDEX_LISTING);
  const head = sideOf(kept, 'head', headStamp(place), place, HEAD_LISTING);
  if (index instanceof Promise || head instanceof Promise)
    return Promise.all([index, head]).then(([i, h]) => printedSecret(place, reads, i, h));
  return printedSecret(place, reads, index, head);
}

/** The index's or HEAD's entries: path to object (with the index's stat data), and the secret ones. */
interface Side {
  readonly entries: ReadonlyMap<string, Entry>;
  readonly secrets: readonly SecretEntry[];
}

interface Entry {
  readonly id: string;
  /** The index's record of the work-tree file (`mtime s:ns`, size, inode); absent for HEAD. */
  readonly stat?: { readonly mtime: string; readonly size: string; readonly ino: string } | undefined;
}

/** An entry that is secret by its object's content or its name: its path from the top, and why. */
interface SecretEntry {
  readonly path: string;
  readonly reason: string;
}

interface KeptCheckout {
  index?: { stamp: string; side: Side };
  head?: { stamp: string; side: Side };
}

/** By git folder; few at a time (a listing of a large repository is a map of every path). */
const checkouts = new Map<string, KeptCheckout>();
const MAX_CHECKOUTS = 8;

function newCheckout(gitDir: string): KeptCheckout {
  if (checkouts.size >= MAX_CHECKOUTS) checkouts.clear();
  const kept: KeptCheckout = {};
  checkouts.set(gitDir, kept);
  return kept;
}

/** A side kept while its stamp is unchanged, else listed by git again. */
function sideOf(
  kept: KeptCheckout,
  name: 'index' | 'head',
  stamp: string,
  place: GitRepoPlace,
  listing: Listing,
): Side | Promise<Side> {
  const known = kept[name];
  if (known?.stamp === stamp) return known.side;
  return listSide(place, listing).then((side) => {
    kept[name] = { stamp, side };
    return side;
  });
}

/** The first secret entry the comparisons print among the paths named, as `the index's path holds …`. */
function printedSecret(place: GitRepoPlace, reads: CheckoutReads, index: Side, head: Side): string | null {
  if (index.secrets.length === 0 && head.secrets.length === 0) return null;
  const named = reads.paths?.map((path) => relative(place.top, resolve(reads.base, path)));
  const wanted = (path: string) => named === undefined || named.some((name) => isUnder(path, name));
  // Whether the work-tree file differs from the index's: the same size, time and inode as the index
  // recorded, before the index was written (git's own check), else the same content (its object id).
  const indexTime = indexMtime(place);
  const changed = (path: string): boolean => {
    const entry = index.entries.get(path);
    if (entry?.stat === undefined) return true;
    const file = statSync(join(place.top, path), { bigint: true, throwIfNoEntry: false });
    if (file === undefined || !file.isFile()) return true;
    const sameStat =
      `${file.mtimeNs / NS}:${file.mtimeNs % NS}` === entry.stat.mtime &&
      String(file.size) === entry.stat.size &&
      String(file.ino & INO_MASK) === entry.stat.ino;
    if (sameStat && file.mtimeNs < indexTime) return false;
    return file.size > MAX_HASHED_BYTES || gitBlobId(join(place.top, path), entry.id.length) !== entry.id;
  };
  const differs = (path: string) => index.entries.get(path)?.id !== head.entries.get(path)?.id;
  for (const compare of reads.compares) {
    switch (compare) {
      case 'worktree-index':
        for (const entry of index.secrets)
          if (wanted(entry.path) && changed(entry.path)) return says("the index's", entry);
        break;
      case 'index-head':
        for (const entry of index.secrets)
          if (wanted(entry.path) && differs(entry.path)) return says("the index's", entry);
        for (const entry of head.secrets)
          if (wanted(entry.path) && differs(entry.path)) return says("HEAD's", entry);
        break;
      case 'worktree-head':
        for (const entry of head.secrets)
          if (wanted(entry.path) && (differs(entry.path) || changed(entry.path)))
            return says("HEAD's", entry);
        // An unchanged work-tree file is the index's: printed where it differs from HEAD's.
        for (const entry of index.secrets)
          if (wanted(entry.path) && differs(entry.path) && !changed(entry.path))
            return says("the work tree's (as the index's)", entry);
        break;
    }
  }
  return null;
}

const NS = 1_000_000_000n;
/** A larger work-tree file is counted as changed, not read. */
const MAX_HASHED_BYTES = 64n * 1024n * 1024n;

/** The id git gives a file's content (SHA-1, or SHA-256 in a repository of 64-digit ids); null if unread. */
function gitBlobId(path: string, idLength: number): string | null {
  let content: Buffer;
  try {
    content = readFileSync(path);
  } catch {
    return null;
  }
  const hash = createHash(idLength === 64 ? 'sha256' : 'sha1');
  hash.update(`blob ${content.length}\0`);
  hash.update(content);
  return hash.digest('hex');
}
/** The index keeps an inode's low 32 bits. */
const INO_MASK = 0xffffffffn;

function says(side: string, entry: SecretEntry): string {
  return `${side} ${shown(entry.path)} ${entry.reason}`;
}

function isUnder(entry: string, path: string): boolean {
  if (path === '') return true;
  if (path.startsWith('..') || isAbsolute(path)) return false;
  return entry === path || entry.startsWith(`${path}/`);
}

/** How much of a path a reason quotes. */
const SHOWN_CHARS = 120;

function shown(path: string): string {
  return path.length > SHOWN_CHARS ? `${path.slice(0, SHOWN_CHARS)}…` : path;
}

/** How git lists the entries. */
interface Listing {
  readonly args: readonly string[];
  /** Fields before the tab, split at spaces: the id's place among them. */
  readonly idField: number;
  /** Each record is followed by the index's stat lines (`--debug`). */
  readonly withStat: boolean;
  /** What the listing means when git fails with this text (no commit yet: an empty HEAD). */
  readonly emptyWhen: string | null;
}

const INDEX_LISTING: Listing = {
  args: ['ls-files', '-s', '--debug', '-z'],
  idField: 1,
  withStat: true,
  emptyWhen: null,
};
const HEAD_LISTING: Listing = {
  args: ['ls-tree', '-r', '-z', '--full-tree', 'HEAD'],
  idField: 2,
  withStat: false,
  emptyWhen: 'Not a valid object name',
};

/** A side whose listing failed: every entry unknown, one secret that says so. */
const UNLISTED: Side = {
  entries: new Map(),
  secrets: [{ path: '', reason: 'could not be listed to look for secrets' }],
};

/** Lists a side with git; its entries' objects not judged by the store's scan are judged now. */
async function listSide(place: GitRepoPlace, listing: Listing): Promise<Side> {
  let listed: Buffer;
  try {
    ({ stdout: listed } = await runGitProcess(listing.args, {
      cwd: place.top,
      env: process.env,
      settings: ['core.fsmonitor=false', 'core.hooksPath=/dev/null'],
      timeoutMs: TIMEOUT_MS,
      failure: (message) => new Error(message),
      missing: 'git is not installed',
    }));
  } catch (error) {
    if (listing.emptyWhen !== null && error instanceof Error && error.message.includes(listing.emptyWhen))
      return { entries: new Map(), secrets: [] };
    return UNLISTED;
  }
  const entries = parseListing(listed.toString('utf8'), listing);
  if (entries === null) return UNLISTED;
  // The store's scan stops at its first secret file: the entries' objects not judged then are now.
  const unjudged: string[] = [];
  for (const { id } of entries.values()) if (storedObjectReason(id) === undefined) unjudged.push(id);
  if (unjudged.length > 0) await judgeStoredObjects(place.top, unjudged);
  const secrets: SecretEntry[] = [];
  for (const [path, { id }] of entries) {
    const byContent = storedObjectReason(id);
    const byName = secretNameReason(basename(path));
    const reason =
      byContent === undefined
        ? 'was not scanned for secrets'
        : (byContent ?? (byName === null ? null : `is ${byName}`));
    if (reason !== null) secrets.push({ path, reason });
  }
  return { entries, secrets };
}

/**
 * `<mode> <id> <stage>\t<path>\0` (ls-files -s; ls-tree: `<mode> <type> <id>\t<path>\0`), with
 * `--debug` five lines after each (`  ctime: s:ns`, `  mtime: s:ns`, `  dev: D\tino: I`, `  uid: U\tgid:
 * G`, `  size: S\tflags: F`). Null when the text is not that. A path in several stages (a merge in
 * progress) is kept at its last: each stage's object is judged all the same, by the secrets list.
 */
function parseListing(text: string, listing: Listing): Map<string, Entry> | null {
  const entries = new Map<string, Entry>();
  let at = 0;
  while (at < text.length) {
    const tab = text.indexOf('\t', at);
    const nul = text.indexOf('\0', tab + 1);
    if (tab < 0 || nul < 0) return null;
    const fields = text.slice(at, tab).split(' ');
    const path = text.slice(tab + 1, nul);
    at = nul + 1;
    let stat: Entry['stat'];
    if (listing.withStat) {
      const lines: string[] = [];
      for (let k = 0; k < 5; k++) {
        const end = text.indexOf('\n', at);
        if (end < 0) return null;
        lines.push(text.slice(at, end));
        at = end + 1;
      }
      const mtime = /^ {2}mtime: (\d+:\d+)$/.exec(lines[1]!)?.[1];
      const ino = /\tino: (\d+)$/.exec(lines[2]!)?.[1];
      const size = /^ {2}size: (\d+)\t/.exec(lines[4]!)?.[1];
      if (mtime === undefined || ino === undefined || size === undefined) return null;
      stat = { mtime, size, ino };
    }
    // A submodule's commit is another repository's object.
    if (fields[0] === '160000') continue;
    const id = fields[listing.idField];
    if (id === undefined) return null;
    entries.set(path, { id, stat });
  }
  return entries;
}

const TIMEOUT_MS = 60_000;

/** The index file's identity and time: git writes a new one (a new inode) at each change. */
function indexStamp(place: GitRepoPlace): string {
  return stampOf(join(place.gitDir, 'index'));
}

/** The index file's modification time (ns): a work-tree file changed at or after it may be changed. */
function indexMtime(place: GitRepoPlace): bigint {
  return statSync(join(place.gitDir, 'index'), { bigint: true, throwIfNoEntry: false })?.mtimeNs ?? 0n;
}

/** HEAD's text, and the identity of the ref it names and of packed-refs (refs are rewritten too). */
function headStamp(place: GitRepoPlace): string {
  let head: string;
  try {
    head = readFileSync(join(place.gitDir, 'HEAD'), 'latin1');
  } catch {
    return '-';
  }
  const ref = /^ref: (\S+)/.exec(head)?.[1];
  const refStamp = ref === undefined ? '' : stampOf(join(place.commonDir, ref));
  return `${head}|${refStamp}|${stampOf(join(place.commonDir, 'packed-refs'))}`;
}

function stampOf(path: string): string {
  try {
    const stat = statSync(path, { bigint: true, throwIfNoEntry: false });
    return stat === undefined ? '-' : `${stat.ino}:${stat.mtimeNs}:${stat.size}`;
  } catch {
    return '?';
  }
}
