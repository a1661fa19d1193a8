import { lstatSync } from 'node:fs';
import { sep } from 'node:path';
import { isWithinDirectory } from '../util/path-within.js';

/**
 * What the sandbox binds read-only for one name git's config holds (git-config-holds.ts: an include,
 * a `core.hooksPath` folder), so that a command can neither change what is there nor what the name
 * leads to. A bind cannot be put on a symlink (the mount lands where it leads, and a bind source with
 * a symlink on its way is refused as moved: sandbox-bind-fds.ts), and a command could repoint the link
 * (`ln -sfn evil conf/shared.gitconfig`, a symlinked hooks folder replaced by a folder of its own).
 *
 * So, walking from the writable root down to the name:
 * - every folder on the way plain and the name a file or folder: the name itself;
 * - a symlink on the way (or the name one): the plain folder that holds the link, read-only with all
 *   it holds (as named-script-holds.ts does for hook scripts); none when that folder is the root
 *   itself (the whole workspace cannot be read-only): the name's real path is held by itself
 *   (GitConfigHolds holds each name as named and where it really is), the link is not;
 * - something missing on the way: the plain folder it would be made in; at the top of the root, the
 *   missing name itself, made (empty) at each command's launch and held once it exists
 *   (heldPlaceholders in git-config-holds.ts).
 * `realRoots`: the writable folders' real paths; a name outside them gives nothing.
 */
export function heldWithoutLinks(path: string, realRoots: readonly string[]): string | null {
  const root = realRoots.find((dir) => dir !== path && isWithinDirectory(path, dir));
  if (root === undefined) return null;
  let folder = root;
  for (const name of path.slice(root.endsWith(sep) ? root.length : root.length + 1).split(sep)) {
    const entry = `${folder}${folder.endsWith(sep) ? '' : sep}${name}`;
    const stat = lstatSync(entry, { throwIfNoEntry: false });
    // Missing: the folder that would hold it, so a command cannot make it (at the root, which cannot
    // be read-only, the name itself, made empty at each command's launch: heldPlaceholders).
    if (stat === undefined) return folder === root ? entry : folder;
    if (stat.isSymbolicLink()) return folder === root ? null : folder;
    // Reached, or a file where a folder should be (git reads nothing through it): held by itself.
    if (entry === path || !stat.isDirectory()) return entry;
    folder = entry;
  }
  return path;
}

/** Each of `paths` held without a link (heldWithoutLinks), once; the outermost of nested holds left to the caller. */
export function heldNamesWithoutLinks(paths: readonly string[], realRoots: readonly string[]): string[] {
  const held = new Set<string>();
  for (const path of paths) {
    const hold = heldWithoutLinks(path, realRoots);
    if (hold !== null) held.add(hold);
  }
  return [...held];
}
