import { realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, delimiter, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { isHomeStartupEntry } from './home-startup-entry.js';
import { isWithinDirectory } from './path-within.js';
import { writableFolders } from './writable-folders.js';

/** What a POSIX shell searches when PATH is unset. */
const DEFAULT_PATH = '/usr/local/bin:/usr/bin:/bin';

/** Results by PATH and folders, as given: a PATH hardly changes, and the work folders are a session's few. */
const known = new Map<string, string>();
const KNOWN_LIMIT = 64;

/**
 * The PATH every program kimi-ts starts looks names up on: the given one without the entries a
 * work tree controls. Every such program runs in, or for, a work tree: a stranger's folder.
 *
 * - Relative entries (`.`, `bin`, an empty one) name a folder of the current directory: the
 *   repository's own `bash`, `ls` or `git` would run in place of the one the policy judged.
 * - Absolute entries inside the work tree: the folder kimi-ts started in and `workFolders` (the
 *   work dir, the folder a program runs in), by path and by real path. `npx kimi-ts` (npm exec)
 *   puts the project's `node_modules/.bin` first on PATH, and a repository that ships one there
 *   would be the checkpoints' `git` (outside any sandbox), the sandbox's own `bwrap`, and every
 *   command's `bash`. A folder that holds the person's home (their home itself, `/home`, `/`) is
 *   not taken for a work tree here: `~/bin` and `~/.local/bin` stay when kimi-ts runs in `~` (see
 *   workTreeFolders for what keeps them clean).
 * - Absolute entries inside any folder a live session can write to (src/util/writable-folders.ts:
 *   its work dir and added dirs, what its sandbox binds writable): a command the model ran could
 *   have put a `git` or `bash` there for kimi-ts itself to run later, outside any sandbox.
 *
 * Never empty: an empty PATH is itself the current directory to a shell and to execvp, so when
 * nothing is left it is the shells' default.
 */
export function trustedPathEntries(path: string | undefined, given: readonly string[] = []): string {
  const workFolders = [...given, ...writableFolders()];
  // Keyed by what was given (process.cwd() is a cached string): no realpath on a command's path.
  const key = `${path ?? ''}\0${startFolder() ?? ''}\0${workFolders.join('\0')}`;
  const found = known.get(key);
  if (found !== undefined) return found;
  const { folders, heldHome } = workTreeFolders(workFolders);
  const kept = (path ?? '').split(delimiter).filter((dir) => {
    if (!isAbsolute(dir)) return false;
    const real = realOrSelf(dir);
    if (folders.some((folder) => isWithinDirectory(real, folder))) return false;
    // In a home a work folder holds: only the entries the sandbox keeps read-only then.
    return heldHome === null || !inWritablePartOfHome(real, heldHome);
  });
  const result = kept.length > 0 ? kept.join(delimiter) : DEFAULT_PATH;
  if (known.size >= KNOWN_LIMIT) known.clear();
  known.set(key, result);
  return result;
}

/** `env` with its PATH made of trusted entries only (trustedPathEntries). */
export function withTrustedPath<T extends Readonly<Record<string, string | undefined>>>(
  env: T,
  workFolders: readonly string[] = [],
): T & { PATH: string } {
  return { ...env, PATH: trustedPathEntries(env.PATH, workFolders) };
}

/**
 * The start folder and `workFolders`, each as written and as its real path, without home's holders;
 * `heldHome`, the home's real path when one of them holds it (`~`, `/home`, `/`). Such a folder keeps
 * `~/.local/bin` and `~/bin` on PATH, as the person's shell has them: the sandbox binds the home's
 * dot entries and `~/bin` read-only then (src/policy/sandbox-home.ts), and the file tools protect
 * them (src/policy/home-startup-files.ts). Its other entries (`~/go/bin`) stay writable, so they go.
 */
function workTreeFolders(workFolders: readonly string[]): { folders: string[]; heldHome: string | null } {
  const home = realOrSelf(resolve(homedir()));
  const folders = new Set<string>();
  let heldHome: string | null = null;
  for (const folder of [startFolder(), ...workFolders]) {
    if (folder === undefined) continue;
    for (const form of [resolve(folder), realOrSelf(resolve(folder))]) {
      if (!isWithinDirectory(home, form)) folders.add(form);
      else heldHome = home;
    }
  }
  return { folders: [...folders].sort(), heldHome };
}

/** Whether `real` lies in an entry of `home` that is not one of its startup entries (`~/go/…`). */
function inWritablePartOfHome(real: string, home: string): boolean {
  if (real === home || !isWithinDirectory(real, home)) return false;
  return !isHomeStartupEntry(relative(home, real).split(sep)[0] ?? '');
}

function startFolder(): string | undefined {
  try {
    return process.cwd();
  } catch {
    // The folder was removed under the process: nothing of it to leave out.
    return undefined;
  }
}

/**
 * The real path of `path`; of one that does not exist (yet), the real path of its nearest existing
 * folder with the rest after it: an entry a command could still make (`link/tools/bin`, with `link`
 * leading into the work tree) is judged by where it would be.
 */
function realOrSelf(path: string): string {
  const rest: string[] = [];
  for (let at = path; ; ) {
    try {
      // The native call: one syscall, where the JavaScript one lstats every folder on the way (a
      // PATH of fifteen entries took milliseconds of the start).
      return join(realpathSync.native(at), ...rest.reverse());
    } catch {
      const parent = dirname(at);
      if (parent === at) return path;
      rest.push(basename(at));
      at = parent;
    }
  }
}
