import { delimiter, isAbsolute } from 'node:path';

/** What a POSIX shell searches when PATH is unset. */
const DEFAULT_PATH = '/usr/local/bin:/usr/bin:/bin';

/**
 * PATH without its relative entries (`.`, `bin`, an empty one: each names a folder of the current
 * directory). Every program kimi-ts starts runs in, or looks up names from, a work tree: a stranger's
 * folder, where such an entry finds the repository's own `git`, `bash` or `ls` and runs it in place
 * of the one the policy judged. Never empty: an empty PATH is itself the current directory to a
 * shell and to execvp, so a PATH of relative entries alone becomes the shells' default.
 */
export function absolutePathEntries(path: string | undefined): string {
  const kept = (path ?? '').split(delimiter).filter((dir) => isAbsolute(dir));
  return kept.length > 0 ? kept.join(delimiter) : DEFAULT_PATH;
}

/** `env` with its PATH made of absolute entries only (absolutePathEntries). */
export function withAbsolutePath<T extends Readonly<Record<string, string | undefined>>>(
  env: T,
): T & { PATH: string } {
  return { ...env, PATH: absolutePathEntries(env.PATH) };
}
