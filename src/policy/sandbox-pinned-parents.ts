import { lstatSync } from 'node:fs';
import { dirname } from 'node:path';
import { isWithinDirectory } from '../util/path-within.js';

/**
 * bubblewrap's arguments that pin the folders between a writable root and what the sandbox holds
 * inside it (kimi-ts's own code in `tools/kimi-ts`, a config file it loaded in `conf/`, the agent's
 * home in `state/kimi-home`): each bound onto itself, writable.
 *
 * What is held is a mount point (read-only, or hidden) that a command can neither rename nor remove;
 * a folder above it is not, and a command could move it away (the mount goes with it) and make a new
 * one in its place holding a config or code of its own, which kimi-ts would load later, outside any
 * sandbox. A mount point cannot be renamed or removed (EBUSY), so each folder on the way is made one;
 * what those folders hold stays writable. A folder the sandbox keeps read-only already (the home's dot
 * folders, when the workspace holds the home) is not bound again: that would make it writable.
 *
 * Given right after the roots' own binds, before any bind inside them: a bind made later, of a folder
 * above, would cover the binds inside it (the read-only `.git` and `.kimi-ts`, the hidden files) with
 * the folder as it is outside. Outermost first. Only real folders: the paths are real paths, and a
 * folder on the way that is gone (moved outside the sandbox) or is a symlink is not bound (nothing
 * held is there then).
 */
export function pinnedParents(
  heldRealPaths: readonly string[],
  realWritableRoots: readonly string[],
  /** Whether a folder inside `root` (the innermost root holding it) is read-only already (the home's dot folders). */
  keptReadOnly: (dir: string, root: string) => boolean,
): string[] {
  const pins = new Set<string>();
  if (heldRealPaths.length === 0) return [];
  // The innermost root holding a path is the one whose binds come last (an add-dir inside the home).
  const roots = [...realWritableRoots].sort((a, b) => b.length - a.length);
  for (const held of heldRealPaths) {
    const root = roots.find((r) => held !== r && isWithinDirectory(held, r));
    if (root === undefined) continue;
    for (let dir = dirname(held); dir !== root && isWithinDirectory(dir, root); dir = dirname(dir))
      if (!keptReadOnly(dir, root)) pins.add(dir);
  }
  if (pins.size === 0) return [];
  return [...pins]
    .sort((a, b) => a.length - b.length)
    .filter((dir) => lstatSync(dir, { throwIfNoEntry: false })?.isDirectory() === true)
    .flatMap((dir) => ['--bind', dir, dir]);
}

/** The pins (`--bind P P` triples) of folders inside `dir`: bound again after `dir` is. */
export function pinsWithin(pins: readonly string[], dir: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < pins.length; i += 3) {
    const pinned = pins[i + 1]!;
    if (isWithinDirectory(pinned, dir)) out.push(...pins.slice(i, i + 3));
  }
  return out;
}
