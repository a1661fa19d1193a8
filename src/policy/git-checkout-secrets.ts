import { readFileSync, statSync } from 'node:fs';
import { basename, isAbsolute, join, relative, resolve } from 'node:path';
import { runGitProcess } from '../util/git-process.js';
import { storedObjectReason } from './git-store-secrets.js';
import type { GitRepoPlace } from './git-store-state.js';
import { secretNameReason } from './secret-file-names.js';

/** Which stored files a command prints: the index's, HEAD's, perhaps only some paths of them. */
export interface CheckoutSides {
  readonly index: boolean;
  readonly head: boolean;
  /** Paths as the command names them, relative to `base`; null for every path. */
  readonly paths: readonly string[] | null;
  /** The folder the command's paths are relative to (its folder, after `-C`). */
  readonly base: string;
}

/**
 * Why a command that prints only files of the index and HEAD (`git diff`, `git diff --cached`,
 * `git status -v`) may hand over a secret: one of those files (of the paths it names) holds one, or
 * is secret by its name. A token in a file the history holds but the index and HEAD do not (an old
 * fixture, a leak removed since) is not printed by these commands. The object store must have been
 * scanned first (git-store-secrets.ts): its verdicts on each object id are looked up here.
 *
 * Which objects the index and HEAD name is listed by git (`ls-files -s`, `ls-tree -r HEAD`) only
 * when the index file or HEAD (its ref, packed-refs) changed since: a few stats otherwise. Only the
 * secret entries are kept, usually none.
 */
export function checkoutSecretReason(
  place: GitRepoPlace,
  sides: CheckoutSides,
): string | null | Promise<string | null> {
  const kept = checkouts.get(place.gitDir) ?? newCheckout(place.gitDir);
  const index = sides.index ? sideSecrets(kept, 'index', indexStamp(place), place, INDEX_LISTING) : NONE;
  const head = sides.head ? sideSecrets(kept, 'head', headStamp(place), place, HEAD_LISTING) : NONE;
  const answer = (indexSecrets: readonly SecretEntry[], headSecrets: readonly SecretEntry[]) => {
    const inIndex = firstMatch(indexSecrets, place, sides);
    if (inIndex !== null) return `the index's ${inIndex}`;
    const inHead = firstMatch(headSecrets, place, sides);
    return inHead === null ? null : `HEAD's ${inHead}`;
  };
  if (index instanceof Promise || head instanceof Promise)
    return Promise.all([index, head]).then(([i, h]) => answer(i, h));
  return answer(index, head);
}

const NONE: readonly SecretEntry[] = [];

/** A side's secret entries: kept while its stamp is unchanged, else listed by git again. */
function sideSecrets(
  kept: KeptCheckout,
  side: 'index' | 'head',
  stamp: string,
  place: GitRepoPlace,
  listing: Listing,
): readonly SecretEntry[] | Promise<readonly SecretEntry[]> {
  const known = kept[side];
  if (known?.stamp === stamp) return known.secrets;
  return listSecrets(place, listing).then((secrets) => {
    kept[side] = { stamp, secrets };
    return secrets;
  });
}

/** An entry of the index or HEAD that is secret: its path from the work tree's top, and why. */
interface SecretEntry {
  readonly path: string;
  readonly reason: string;
}

interface KeptCheckout {
  index?: { stamp: string; secrets: readonly SecretEntry[] };
  head?: { stamp: string; secrets: readonly SecretEntry[] };
}

/** By git folder. */
const checkouts = new Map<string, KeptCheckout>();
const MAX_CHECKOUTS = 64;

function newCheckout(gitDir: string): KeptCheckout {
  if (checkouts.size >= MAX_CHECKOUTS) checkouts.clear();
  const kept: KeptCheckout = {};
  checkouts.set(gitDir, kept);
  return kept;
}

/** The first secret entry among the paths named, as `path holds …`; null when none. */
function firstMatch(
  secrets: readonly SecretEntry[],
  place: GitRepoPlace,
  sides: CheckoutSides,
): string | null {
  if (secrets.length === 0) return null;
  const named = sides.paths?.map((path) => relative(place.top, resolve(sides.base, path)));
  for (const entry of secrets) {
    if (named === undefined || named.some((path) => isUnder(entry.path, path)))
      return `${shown(entry.path)} ${entry.reason}`;
  }
  return null;
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

/** How git lists the entries and where in a NUL-ended record the object id and the path are. */
interface Listing {
  readonly args: readonly string[];
  /** Fields before the tab, split at spaces: the id's place among them. */
  readonly idField: number;
  /** What the listing means when git fails with this text (no commit yet: an empty HEAD). */
  readonly emptyWhen: string;
}

const INDEX_LISTING: Listing = { args: ['ls-files', '-s', '-z'], idField: 1, emptyWhen: '\0never' };
const HEAD_LISTING: Listing = {
  args: ['ls-tree', '-r', '-z', '--full-tree', 'HEAD'],
  idField: 2,
  emptyWhen: 'Not a valid object name',
};

/** The entries of a listing that are secret by their object's content or their name. */
async function listSecrets(place: GitRepoPlace, listing: Listing): Promise<SecretEntry[]> {
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
    if (error instanceof Error && error.message.includes(listing.emptyWhen)) return [];
    return [{ path: '', reason: 'could not be listed to look for secrets' }];
  }
  const secrets: SecretEntry[] = [];
  for (const record of listed.toString('utf8').split('\0')) {
    const tab = record.indexOf('\t');
    if (tab < 0) continue;
    const fields = record.slice(0, tab).split(' ');
    const path = record.slice(tab + 1);
    // A submodule's commit is another repository's object.
    if (fields[0] === '160000') continue;
    const id = fields[listing.idField] ?? '';
    const byContent = storedObjectReason(id);
    const byName = secretNameReason(basename(path));
    const reason =
      byContent === undefined
        ? 'was not scanned for secrets'
        : (byContent ?? (byName === null ? null : `is ${byName}`));
    if (reason !== null) secrets.push({ path, reason });
  }
  return secrets;
}

const TIMEOUT_MS = 60_000;

/** The index file's identity and time: git writes a new one (a new inode) at each change. */
function indexStamp(place: GitRepoPlace): string {
  return stampOf(join(place.gitDir, 'index'));
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
