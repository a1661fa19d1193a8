import { lstatSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { realOrGiven } from '../util/real-or-given.js';
import { importsFromScriptFolder, type NamedScript } from './script-words.js';

/**
 * What the sandbox holds for a script a hook or stdio MCP server names (outside any sandbox, at the
 * next event or the next start) when the name is not a plain file: a symlink, a name through a
 * symlinked folder, or nothing yet. The file it leads to is held by itself (hook-script-files.ts,
 * mcp-server-files.ts), but a command could replace the link, or create the script, and the next
 * session would run that; the hook watch (hook-script-watch.ts) covers only the session that sees it.
 *
 * So the name's folder is held instead: the deepest folder on its way that exists and is not a
 * symlink, read-only with all it holds (`byFolder`: a file in it). Where that folder is a writable root
 * itself (the whole workspace cannot be read-only), a missing first name below it is made, empty, and
 * held (`madeWhenMissing`: `scripts/` for `scripts/hooks/start.sh`); a symlink at the top of the
 * workspace is not held (the README says so): it is returned in `linksNotHeld`, with the name that
 * goes through it. A Python script's folder is held too, whatever the name (importsFromScriptFolder).
 * `realRoots`: the writable folders' real paths.
 */
export function namedScriptHolds(
  scripts: readonly NamedScript[],
  realRoots: readonly string[],
): { byFolder: string[]; madeWhenMissing: string[]; linksNotHeld: LinkNotHeld[] } {
  const byFolder = new Set<string>();
  const madeWhenMissing = new Set<string>();
  const linksNotHeld: LinkNotHeld[] = [];
  for (const { path, interpreter } of scripts) {
    // The folders above the name, up to the writable root holding it.
    const chain: string[] = [];
    let root = -1;
    for (let dir = dirname(path); ; dir = dirname(dir)) {
      chain.push(dir);
      if (realRoots.includes(realOrGiven(dir))) {
        root = chain.length - 1;
        break;
      }
      if (dir === dirname(dir)) break;
    }
    if (root < 0) continue;
    // The deepest of them with only plain folders from it up to the root.
    let held = root;
    while (held > 0 && isPlainFolder(chain[held - 1]!)) held--;
    const stat = lstatSync(path, { throwIfNoEntry: false });
    // A file or folder reached with no symlink on the way: held by itself where it needs to be.
    if (held === 0 && stat !== undefined && !stat.isSymbolicLink()) {
      // A Python script's folder comes first on its import path: held with it (a file at the top of
      // the workspace is held by itself only).
      if (stat.isFile() && importsFromScriptFolder(interpreter)) byFolder.add(realOrGiven(path));
      continue;
    }
    const folder = chain[held]!;
    const entry = join(realOrGiven(folder), relative(folder, path).split(sep)[0]!);
    if (held !== root) byFolder.add(entry);
    else if (lstatSync(entry, { throwIfNoEntry: false }) === undefined) madeWhenMissing.add(entry);
    // The first name below the root exists and is no plain folder (nor the plain file itself): a link.
    else linksNotHeld.push({ path, link: entry });
  }
  return { byFolder: [...byFolder], madeWhenMissing: [...madeWhenMissing], linksNotHeld };
}

/** A name the sandbox cannot hold: `path` goes through `link`, an entry of a writable root itself. */
export interface LinkNotHeld {
  readonly path: string;
  readonly link: string;
}

/** A folder that exists and is not a symlink. */
function isPlainFolder(path: string): boolean {
  const stat = lstatSync(path, { throwIfNoEntry: false });
  return stat?.isDirectory() === true;
}
