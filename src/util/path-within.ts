import { sep } from 'node:path';

/**
 * True when `path` is `dir` or lies below it. Both must be absolute and normalised (realpaths,
 * `path.resolve` results): they are compared as strings, with no file system access, which keeps
 * a decision in microseconds.
 */
export function isWithinDirectory(path: string, dir: string): boolean {
  if (path.length < dir.length || !path.startsWith(dir)) return false;
  if (path.length === dir.length || dir.endsWith(sep)) return true;
  return path[dir.length] === sep;
}
