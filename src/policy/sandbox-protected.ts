import { existsSync, lstatSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { isWithinDirectory } from '../util/path-within.js';
import { realSource } from './sandbox-bind-fds.js';

/**
 * Folders inside a writable workspace that stay read-only in the sandbox, for commands and file
 * tools alike: what is written there runs later, outside any sandbox, when the person uses git
 * (`.git/hooks`, `core.fsmonitor` in `.git/config`, a `commondir` pointing elsewhere: so the whole
 * `.git`), or changes what the agent may do (`.kimi-ts/`: rules, hooks, skills).
 */
export const PROTECTED_NAMES: readonly string[] = ['.git', '.kimi-ts'];

/** The protected paths of one writable root. */
export function protectedPaths(root: string): string[] {
  return PROTECTED_NAMES.map((name) => join(root, name));
}

/**
 * Whether the sandbox lets a write reach `realPath`: inside a writable root (real paths) and not
 * in one of its protected folders.
 */
export function sandboxWritable(realPath: string, realRoots: readonly string[]): boolean {
  return realRoots.some(
    (root) =>
      isWithinDirectory(realPath, root) &&
      !protectedPaths(root).some((path) => isWithinDirectory(realPath, path)),
  );
}

/**
 * Binds the protected folders of a writable root read-only; one that does not exist yet is made
 * (empty) first, so a command cannot create it with content of its own. Those it made are recorded.
 */
export function ensureProtected(root: string, placeholders: Set<string>, names = PROTECTED_NAMES): string[] {
  const args: string[] = [];
  if (!existsSync(root)) return args;
  for (const path of names.map((name) => join(root, name))) {
    const stat = lstatSync(path, { throwIfNoEntry: false });
    if (stat === undefined) {
      try {
        mkdirSync(path);
        placeholders.add(path);
      } catch {
        continue; // cannot be made here: then a command cannot make it either
      }
    }
    // A symlinked `.git` is bound where it leads, resolved here: a bind source has no symlink in it
    // (sandbox-bind-fds.ts refuses one), and bwrap checks a descriptor's mount point is the object
    // itself (the link then leads to the read-only folder). A dangling one: nothing to protect.
    const real = stat?.isSymbolicLink() ? realSource(path) : path;
    if (real !== null) args.push('--ro-bind', real, real);
  }
  return args;
}
