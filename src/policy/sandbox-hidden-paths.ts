import { readdirSync, statSync } from 'node:fs';
import { resolve, sep } from 'node:path';
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
 * every step: the home is listed once instead, and a place whose first name under the home is not
 * in that list is known missing without a `stat`. An unreadable home: each is asked, as before.
 */
export function hiddenPathKinds(context: HiddenPathsContext): Map<string, 'dir' | 'file' | null> {
  const paths = hiddenPaths(context);
  const home = resolve(context.userHome);
  let entries: Set<string> | null;
  try {
    entries = new Set(readdirSync(home));
  } catch {
    entries = null;
  }
  const kinds = new Map<string, 'dir' | 'file' | null>();
  for (const path of paths) {
    const first = entries === null ? null : firstNameUnder(home, path);
    kinds.set(path, first !== null && !entries?.has(first) ? null : kindOf(path));
  }
  return kinds;
}

/** `path`'s first name below `home` (`.config` for `~/.config/gh`); null when not below it. */
function firstNameUnder(home: string, path: string): string | null {
  const prefix = home.endsWith(sep) ? home : home + sep;
  if (!path.startsWith(prefix)) return null;
  const rest = path.slice(prefix.length);
  const end = rest.indexOf(sep);
  const first = end === -1 ? rest : rest.slice(0, end);
  return first === '' || first === '.' || first === '..' ? null : first;
}

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
