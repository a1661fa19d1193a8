import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { trustedPathEntries } from '../../util/path-entries.js';

/** Where bash usually is when PATH does not say. */
const FALLBACK_BASH_PATHS = ['/bin/bash', '/usr/bin/bash', '/usr/local/bin/bash'];

/**
 * The bash last found per PATH. Looking again costs a failed `access` (a thrown error) for every
 * PATH folder before bash's, on every command; the one found is checked again instead, and looked
 * for anew once it is gone (a bash installed meanwhile earlier on PATH is used by the next session).
 */
const foundForPath = new Map<string, string>();

/**
 * The bash executable on `env`'s PATH (its trusted entries, src/util/path-entries.ts: a `.` or the
 * work dir's `node_modules/.bin` would find the work tree's own `bash`, which would then run every
 * command), or null when there is none.
 */
export function findBash(
  env: Readonly<Record<string, string | undefined>>,
  workFolders: readonly string[],
): string | null {
  const path = trustedPathEntries(env.PATH, workFolders);
  const known = foundForPath.get(path);
  if (known !== undefined && isExecutableFile(known)) return known;
  const pathDirs = path.split(delimiter);
  const candidates = [...pathDirs.map((dir) => join(dir, 'bash')), ...FALLBACK_BASH_PATHS];
  const found = candidates.find(isExecutableFile) ?? null;
  if (found === null) foundForPath.delete(path);
  else foundForPath.set(path, found);
  return found;
}

/**
 * The environment commands run with: the session's, with git told never to prompt for credentials
 * (there is no terminal to answer it, so the command would hang until its timeout), SHELL set to
 * the bash that runs them, and PATH's entries that the work tree controls dropped (a `.`, its own
 * `node_modules/.bin`: src/util/path-entries.ts): the policy judged `ls` or `git status` as the
 * system's programs, and such an entry would run the work tree's own instead.
 */
export function commandEnvironment(
  processEnv: Readonly<Record<string, string | undefined>>,
  bashPath: string,
  workFolders: readonly string[],
): Record<string, string> {
  // One spread (a copy made by the engine, no loop of ours): the session's variables, ~40 of them,
  // are copied for every command, and an entries loop left a list per variable to collect and, in
  // a long session, a TurboFan job of its own. An unset variable (a name whose value is undefined)
  // is taken out again: the spawn would skip it, but this is a map of strings.
  const env: Record<string, string | undefined> = {
    ...processEnv,
    PATH: trustedPathEntries(processEnv.PATH, workFolders),
    GIT_TERMINAL_PROMPT: '0',
    SHELL: bashPath,
  };
  for (const name in env) if (env[name] === undefined) delete env[name];
  return env as Record<string, string>;
}

function isExecutableFile(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
}
