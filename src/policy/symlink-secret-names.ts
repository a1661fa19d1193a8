import { lstatSync, readlinkSync, realpathSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { secretNameReason } from './secret-file-names.js';

/** Hops followed, as the kernel does (ELOOP past 40). */
const MAX_HOPS = 40;

/**
 * Why a path reached through symlinks is secret by a name on the way, or null: its own name
 * (`.env`), or the name of any symlink its last part goes through (`a -> .env -> config/values`).
 * The real path's name says nothing then: `.env -> config/prod-values` holds the deployment's values
 * under a plain name. Checked only for a path whose last part is a symlink (a folder that is one on
 * the way keeps the file's name): one lstat and readlink per hop.
 */
export function symlinkSecretNameReason(absolute: string): string | null {
  const own = secretNameReason(absolute);
  if (own !== null) return own;
  let path = absolute;
  for (let hop = 0; hop < MAX_HOPS; hop++) {
    const next = linkTarget(path);
    if (next === null) return null;
    const reason = secretNameReason(next);
    if (reason !== null) return reason;
    path = next;
  }
  return null;
}

/**
 * Where the symlink at `path` points, absolute (resolved against its folder's real path: a `..` in
 * the target climbs from where the link really is), or null when `path` is no symlink.
 */
export function linkTarget(path: string): string | null {
  try {
    if (lstatSync(path, { throwIfNoEntry: false })?.isSymbolicLink() !== true) return null;
    return resolve(realpathSync.native(dirname(path)), readlinkSync(path));
  } catch {
    return null;
  }
}
