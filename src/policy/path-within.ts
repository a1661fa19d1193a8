import { isAbsolute, relative, resolve } from 'node:path';

/** True when `path` is `dir` or lies below it (both absolute; compared lexically). */
export function isWithinDirectory(path: string, dir: string): boolean {
  const rel = relative(resolve(dir), resolve(path));
  return rel === '' || (rel !== '..' && !rel.startsWith('../') && !isAbsolute(rel));
}
