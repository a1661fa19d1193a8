import { lstatSync, readlinkSync, rmSync, symlinkSync } from 'node:fs';

/**
 * Names the next kimi-ts (or the `npx` that starts it) reads that the sandbox cannot bind read-only,
 * checked after each command and put back as they were before it (before the first of those running):
 * - a symlink at the top of a writable root (a `.kimi-ts` or `.npmrc` shared through a link, a
 *   trusted folder entry `current -> v1`): a bind lands where a link leads, and only a mount point
 *   keeps a name in a writable folder from being removed or renamed, which a link cannot be made, so
 *   `rm .kimi-ts && mkdir .kimi-ts` succeeds in the sandbox; the link comes back after it;
 * - a name that did not exist (a root's `.npmrc`, `node_modules/.bin/kimi-ts`, `node_modules/.bin/node`,
 *   which `npx kimi-ts` reads or runs first): one a command made is removed. Not made as a bound
 *   placeholder: an empty `.npmrc` shows in `git status` all session long (and `git add -A` takes
 *   it), and a mount point in `node_modules/.bin` makes `npm ci` (which empties `node_modules`) fail.
 * A name that was a plain file or folder is not this guard's (bound read-only where it must be).
 * What a command put in a name's place is removed: it would run, or put rules in force, outside any
 * sandbox. One lstat per name when nothing changed.
 */
export class KeptNamesGuard {
  /** Each name as first seen: a link's target text, or null for a name that did not exist. */
  private readonly kept = new Map<string, string | null>();
  private readonly notPutBack = new Set<string>();

  /**
   * `paths` as they are now, before a command runs with them: each one's first sight, or, with
   * `anew` (no other command of the session runs, and what the last one changed was put back), again:
   * what the person changed since, outside the sandbox (an `.npmrc` they made), is theirs.
   */
  adopt(paths: readonly string[], anew = false): void {
    for (const path of paths) {
      // One that could not be put back keeps its earlier state: what a command left there is not adopted.
      if (anew && !this.notPutBack.has(path)) this.kept.delete(path);
      else if (this.kept.has(path)) continue;
      const stat = lstatSync(path, { throwIfNoEntry: false });
      if (stat === undefined) this.kept.set(path, null);
      else if (stat.isSymbolicLink()) this.kept.set(path, readlinkSync(path));
    }
  }

  /** Puts back each name a command changed; what was put back, for the model (null: nothing). */
  check(): string | null {
    const restored: string[] = [];
    for (const [path, target] of this.kept) {
      const stat = lstatSync(path, { throwIfNoEntry: false });
      if (target === null ? stat === undefined : stat?.isSymbolicLink() && readlinkSync(path) === target) {
        this.notPutBack.delete(path);
        continue;
      }
      try {
        rmSync(path, { recursive: true, force: true });
        if (target !== null) symlinkSync(target, path);
        this.notPutBack.delete(path);
        restored.push(target === null ? `removed ${path}` : `put back ${path} -> ${target}`);
      } catch {
        this.notPutBack.add(path);
        restored.push(`could not put back ${path}`);
      }
    }
    if (restored.length === 0) return null;
    return `kimi-ts ${restored.join('; ')}: commands may not change what the next kimi-ts reads there.`;
  }
}
