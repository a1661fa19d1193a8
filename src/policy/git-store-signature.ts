import { type BigIntStats, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { GitRepoPlace } from './git-store-state.js';

/**
 * Where a repository keeps its objects, and a signature of them that changes whenever one is added
 * or removed: the inode and modification and change times (ns) of `objects/`, `objects/pack/` and
 * each fan-out folder of loose objects (a new loose object adds an entry to one; a new pack to
 * `pack/`; a new fan-out folder to `objects/`). Listing every object (`git cat-file
 * --batch-all-objects`) took ~80 ms of a git process for a 56 MiB store at every command that prints
 * blobs; these stats take a fraction of a millisecond. Null when the store has alternates (objects
 * of another repository) or a folder of it cannot be read: the caller then lists the objects as
 * before.
 */
export interface StoreState {
  readonly objects: string;
  /** Per folder: inode, modification and change times in ns (-1s for a folder not there). */
  readonly signature: BigInt64Array;
}

export function storeStateOf(place: GitRepoPlace, now: () => number = Date.now): StoreState | null {
  const objects = join(place.commonDir, 'objects');
  try {
    if (statSync(join(objects, 'info', 'alternates'), { throwIfNoEntry: false }) !== undefined) return null;
    const objectsInfo = statBig(objects);
    const present = fanOutPresent(objects, objectsInfo, now);
    const signature = new BigInt64Array((2 + FAN_OUT.length) * 3);
    put(signature, 0, objectsInfo);
    put(signature, 1, statBig(join(objects, 'pack')));
    // A fan-out folder known not to be there has the numbers its failed stat would give.
    const folders = fanOutPaths(objects);
    for (let i = 0; i < FAN_OUT.length; i++)
      put(signature, 2 + i, present === null || present.has(FAN_OUT[i]!) ? statBig(folders[i]!) : undefined);
    return { objects, signature };
  } catch {
    return null;
  }
}

/** Whether two signatures are of the store unchanged. */
export function isSameSignature(a: BigInt64Array, b: BigInt64Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function statBig(path: string): BigIntStats | undefined {
  return statSync(path, { bigint: true, throwIfNoEntry: false });
}

/** Writes a folder's numbers at `slot` (numbers, not text: no BigInt printed as decimals). */
function put(signature: BigInt64Array, slot: number, info: BigIntStats | undefined): void {
  if (info === undefined) {
    signature.fill(-1n, slot * 3, slot * 3 + 3);
    return;
  }
  signature[slot * 3] = info.ino;
  signature[slot * 3 + 1] = info.mtimeNs;
  signature[slot * 3 + 2] = info.ctimeNs;
}

/**
 * The fan-out folders (`00` … `ff`) `objects/` holds when it is settled, listed again only when it
 * changed (a folder made or removed there changes its times); null (any may be there) while it is
 * not, as a folder made in the same tick as the listing would leave its times as they were. A
 * freshly cloned or packed store has none (its objects are in packs): its signature is then three
 * stats, not 258.
 */
function fanOutPresent(
  objects: string,
  info: BigIntStats | undefined,
  now: () => number,
): ReadonlySet<string> | null {
  if (info === undefined || Number(info.ctimeMs) >= now() - SETTLED_MS) return null;
  const known = listed.get(objects);
  if (
    known !== undefined &&
    known.ino === info.ino &&
    known.mtimeNs === info.mtimeNs &&
    known.ctimeNs === info.ctimeNs
  )
    return known.present;
  const present = new Set(readdirSync(objects).filter((name) => FAN_OUT_NAME.test(name)));
  if (listed.size >= MAX_STORES) listed.clear();
  listed.set(objects, { ino: info.ino, mtimeNs: info.mtimeNs, ctimeNs: info.ctimeNs, present });
  return present;
}

/**
 * A folder changed less than this long before is listed no more: file times tick coarsely (a jiffy,
 * up to 10 ms), so a second change in the same tick would keep them ("racy git").
 */
const SETTLED_MS = 50;
const FAN_OUT_NAME = /^[0-9a-f]{2}$/;
const FAN_OUT: readonly string[] = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));
const listed = new Map<
  string,
  { ino: bigint; mtimeNs: bigint; ctimeNs: bigint; present: ReadonlySet<string> }
>();
const MAX_STORES = 64;
/** The fan-out folders' paths of the last store asked about (most decisions ask of one). */
let lastPaths: { objects: string; folders: readonly string[] } | null = null;

function fanOutPaths(objects: string): readonly string[] {
  if (lastPaths?.objects !== objects)
    lastPaths = { objects, folders: FAN_OUT.map((name) => join(objects, name)) };
  return lastPaths.folders;
}
