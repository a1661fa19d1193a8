import { realpathSync } from 'node:fs';
import { realpath } from 'node:fs/promises';
import { homedir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import type { FileTarget } from './effects.js';

/** `~` and `~/x` name the user's home; anything else is returned unchanged. */
export function expandHome(path: string, home: string = homedir()): string {
  if (path === '~') return home;
  if (path.startsWith('~/')) return resolve(home, path.slice(2));
  return path;
}

/**
 * Where `path` really is: the realpath of the path, or, for a path that does not exist yet (a new
 * file), the realpath of its nearest existing parent with the missing rest appended. A dangling
 * symlink counts as where it points.
 */
export async function realPathOf(path: string): Promise<string> {
  const absolute = resolve(path);
  const missing: string[] = [];
  let current = absolute;
  for (;;) {
    try {
      const real = await realpath(current);
      return missing.length === 0 ? real : join(real, ...missing.reverse());
    } catch {
      const parent = dirname(current);
      if (parent === current) return absolute;
      missing.push(basename(current));
      current = parent;
    }
  }
}

/**
 * `realPathOf` answered at once, for the checks a decision makes at its time (the same look-up,
 * realpath(3), made synchronously: one system call costs a few µs, a hop to libuv's thread pool and
 * back several times that, and the decision waits for it either way).
 */
export function realPathNow(path: string): string {
  const absolute = resolve(path);
  const missing: string[] = [];
  let current = absolute;
  for (;;) {
    try {
      const real = realpathSync.native(current);
      return missing.length === 0 ? real : join(real, ...missing.reverse());
    } catch {
      const parent = dirname(current);
      if (parent === current) return absolute;
      missing.push(basename(current));
      current = parent;
    }
  }
}

/** Resolves a path the model gave (relative to `baseDir`, `~` expanded) to its real facts. */
export async function resolveFileTarget(given: string, baseDir: string, home?: string): Promise<FileTarget> {
  const absolute = resolve(baseDir, expandHome(given, home));
  const real = await realPathOf(absolute);
  return { given, absolute, real, viaSymlink: real !== absolute };
}
