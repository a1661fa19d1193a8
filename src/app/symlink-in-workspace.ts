import { lstatSync } from 'node:fs';
import { dirname, resolve, sep } from 'node:path';
import { isWithinDirectory } from '../util/path-within.js';
import { realOrGiven } from '../util/real-or-given.js';

/**
 * The first symlink on the way to `path` (as given, made absolute) that lies in a folder commands may
 * write (`realWritableRoots`, real paths), or null. A file kimi-ts loads through such a link (a
 * `--config-file conf/kimi.toml` with `conf` → `settings/v1`) is held where the link leads, but the
 * link itself is an entry of a writable folder: a command can replace it, and the next start with the
 * same path loads what it then leads to.
 */
export function symlinkInWorkspace(path: string, realWritableRoots: readonly string[]): string | null {
  const absolute = resolve(path);
  const parts = absolute.split(sep).filter(Boolean);
  let at = '';
  for (const part of parts) {
    at = `${at}${sep}${part}`;
    if (!lstatSync(at, { throwIfNoEntry: false })?.isSymbolicLink()) continue;
    const folder = realOrGiven(dirname(at));
    if (realWritableRoots.some((root) => isWithinDirectory(folder, root))) return at;
  }
  return null;
}
