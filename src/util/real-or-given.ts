import { realpathSync } from 'node:fs';

/** `path`'s real path (symlinks resolved), or `path` itself when it does not exist or cannot be read. */
export function realOrGiven(path: string): string {
  try {
    return realpathSync.native(path);
  } catch {
    return path;
  }
}
