import { statSync } from 'node:fs';
import { join, resolve, sep } from 'node:path';
import { FolderNames } from '../util/folder-names.js';
import { HOME_CREDENTIALS } from './home-credentials.js';

/**
 * Credential files and folders under the user's home that a sandboxed command never sees (README,
 * "Security model", names the same list): the places of HOME_CREDENTIALS.
 */
export const HIDDEN_HOME_PATHS: readonly string[] = HOME_CREDENTIALS.map((place) => place.path);

/** What the hidden paths are made of (a SandboxContext is one). */
export interface HiddenPathsContext {
  kimiHome: string;
  userHome: string;
  configFiles?: readonly string[] | undefined;
}

/** The paths a command never sees, as of the context's homes and config files (absolute, normalised). */
export function hiddenPaths(context: HiddenPathsContext): readonly string[] {
  // Keyed by value, not by the context object: the sandbox hands each command a fresh copy of its
  // context (RealRoots.checkedContext), and 30-odd joins and resolves for every command were a tenth
  // of a millisecond of every step. Which of the paths exist is still asked at each command.
  const key = [context.kimiHome, context.userHome, ...(context.configFiles ?? [])].join('\0');
  const known = hiddenPathsMemo.get(key);
  if (known !== undefined) return known;
  const paths = [
    resolve(context.kimiHome),
    ...(context.configFiles ?? []).map((file) => resolve(file)),
    ...HIDDEN_HOME_PATHS.map((path) => resolve(context.userHome, path)),
  ];
  // A process holds a few sessions' worth (a web server's, subagents'): bounded all the same.
  if (hiddenPathsMemo.size >= MEMO_LIMIT) hiddenPathsMemo.clear();
  hiddenPathsMemo.set(key, paths);
  return paths;
}

/**
 * What each hidden path is now (kindOf), for one command. Most of the home's credential places do
 * not exist on a given machine, and a `stat` each (over a hundred) was a fifth of a millisecond of
 * every step: a place is known missing when a folder on its way under the home does not list the
 * next name (the home, `~/.config`…: FolderNames, listed again only when one changed, a stat each
 * instead of a readdir of the home at every command); only the places whose folders all list them
 * are asked. A folder on the way that cannot be listed: the place is asked, as before.
 */
export function hiddenPathKinds(context: HiddenPathsContext): Map<string, 'dir' | 'file' | null> {
  const paths = hiddenPaths(context);
  const kinds = new Map<string, 'dir' | 'file' | null>();
  // Each folder's names once for this command (a stat each), not once for every place in it.
  const looked = new Map<string, ReadonlySet<string> | null>();
  const namesIn = (folder: string) => {
    let names = looked.get(folder);
    if (names === undefined) {
      names = homeFolderNames.of(folder);
      looked.set(folder, names);
    }
    return names;
  };
  const ways = waysOf(paths, resolve(context.userHome));
  paths.forEach((path, i) => {
    kinds.set(path, isListed(ways[i] as Way, namesIn) ? kindOf(path) : null);
  });
  return kinds;
}

/** The folders from the home to a path, each with the name in it the next step takes. */
type Way = readonly { readonly folder: string; readonly name: string }[];

/** Whether each folder on a way lists its next name (true too when one cannot be listed: ask then). */
function isListed(way: Way, namesIn: (folder: string) => ReadonlySet<string> | null): boolean {
  for (const { folder, name } of way) {
    const names = namesIn(folder);
    if (names === null) return true;
    if (!names.has(name)) return false;
  }
  return true;
}

/** Each path's way from `home` (none for a path not below it: it is asked), made once per list. */
function waysOf(paths: readonly string[], home: string): readonly Way[] {
  const known = waysMemo.get(paths);
  if (known?.home === home) return known.ways;
  const prefix = home.endsWith(sep) ? home : home + sep;
  const ways = paths.map((path) => {
    const way: { folder: string; name: string }[] = [];
    if (!path.startsWith(prefix)) return way;
    let folder = home;
    for (const name of path.slice(prefix.length).split(sep)) {
      way.push({ folder, name });
      folder = join(folder, name);
    }
    return way;
  });
  waysMemo.set(paths, { home, ways });
  return ways;
}

/** Keyed by hiddenPaths' own (kept) lists. */
const waysMemo = new WeakMap<readonly string[], { home: string; ways: readonly Way[] }>();

/** The folders of the home a command's hidden paths go through, listed when they change. */
const homeFolderNames = new FolderNames();

const MEMO_LIMIT = 64;
const hiddenPathsMemo = new Map<string, readonly string[]>();

/** What a hidden path is now: a folder (a tmpfs over it), a file (/dev/null over it), or nothing. */
export function kindOf(path: string): 'dir' | 'file' | null {
  try {
    // Most of the hidden paths do not exist: no exception thrown for those (the cost of a throw).
    const stat = statSync(path, { throwIfNoEntry: false });
    if (stat === undefined) return null;
    return stat.isDirectory() ? 'dir' : 'file';
  } catch {
    return null;
  }
}
