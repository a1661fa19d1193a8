import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { GitRepoPlace } from './git-store-state.js';

/**
 * Whether a repository has notes (a ref under `refs/notes/`): `git log` then prints them with each
 * commit, and a note is a stored file (a blob), not a message, so a command that prints messages
 * prints stored files too. True also when the refs cannot be read for sure (a reftable store).
 */
export function repositoryHasNotes(place: GitRepoPlace): boolean {
  if (statSync(join(place.commonDir, 'reftable'), { throwIfNoEntry: false }) !== undefined) return true;
  try {
    if (readdirSync(join(place.commonDir, 'refs', 'notes')).length > 0) return true;
  } catch {
    // No notes folder: none as loose refs.
  }
  return packedNotes(join(place.commonDir, 'packed-refs'));
}

/** The last packed-refs read, by its identity: it is rewritten (a new inode) at each change. */
let lastPacked: { path: string; stamp: string; notes: boolean } | null = null;

function packedNotes(path: string): boolean {
  const stat = statSync(path, { bigint: true, throwIfNoEntry: false });
  if (stat === undefined) return false;
  const stamp = `${stat.ino}:${stat.mtimeNs}:${stat.size}`;
  if (lastPacked?.path === path && lastPacked.stamp === stamp) return lastPacked.notes;
  let notes: boolean;
  try {
    notes = readFileSync(path, 'latin1').includes(' refs/notes/');
  } catch {
    notes = true;
  }
  lastPacked = { path, stamp, notes };
  return notes;
}
