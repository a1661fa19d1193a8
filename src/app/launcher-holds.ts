import { lstatSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { isWithinDirectory } from '../util/path-within.js';
import { realOrGiven } from '../util/real-or-given.js';
import { launcherReadsOfCommand, launcherReadsOfWords } from './launcher-reads.js';
import type { NamedScript } from './script-words.js';

/**
 * A command kimi-ts runs outside the sandbox: who starts it (for the warning), what it runs (a hook's
 * command line, run by a shell; an MCP server's words, run without one), its folder.
 */
export type Launch = {
  /** `the hook \`npm run lint\``, `the MCP server project`. */
  readonly starter: string;
  readonly cwd: string;
} & ({ readonly line: string } | { readonly words: readonly string[] });

/** A file or folder in the workspace the sandbox holds read-only because a launcher reads it, for the start warning. */
export interface LauncherFileHeld {
  readonly starter: string;
  readonly file: string;
}

/** What a launcher runs that the sandbox cannot hold, for the start warning. */
export interface LauncherNotHeld {
  readonly starter: string;
  readonly tree: string;
  readonly why: string;
}

/**
 * What the sandbox holds for the launchers hooks and MCP servers start by name (launcher-reads.ts):
 * - `byFile`: the files they read that exist, real paths, each held by itself;
 * - `names`: the same as given, for named-script-holds.ts (a symlink's folder held);
 * - `folders`: held by themselves, made empty where missing (a Python package beside the module);
 * - `notHeld`: those of the trees they run that lie in a writable folder: said at start (the folder
 *   `python -m` imports from is held instead where it is not a writable folder itself);
 * - `heldInWorkspace`: those of `byFile` and of the existing `folders` in a writable folder, said at
 *   start too: a command that changes one (`npm install x` writes package.json, `pip install x` a
 *   virtual environment's site-packages) fails in the sandbox.
 * A file that does not exist is not held (a folder in its place would break the launcher); before a
 * hook runs, one that appeared skips it (hook-script-watch.ts).
 */
export async function launcherHolds(
  launches: readonly Launch[],
  home: string,
  realRoots: readonly string[],
): Promise<{
  byFile: string[];
  names: NamedScript[];
  folders: string[];
  notHeld: LauncherNotHeld[];
  heldInWorkspace: LauncherFileHeld[];
}> {
  const byFile = new Set<string>();
  const heldInWorkspace = new Map<string, LauncherFileHeld>();
  const names = new Map<string, NamedScript>();
  const folders = new Set<string>();
  const notHeld: LauncherNotHeld[] = [];
  const sayHeld = (real: string, starter: string) => {
    if (!heldInWorkspace.has(real) && realRoots.some((root) => isWithinDirectory(real, root))) {
      heldInWorkspace.set(real, { starter, file: real });
    }
  };
  for (const launch of launches) {
    const { starter, cwd } = launch;
    const reads =
      'line' in launch
        ? await launcherReadsOfCommand(launch.line, cwd, home)
        : await launcherReadsOfWords(launch.words, cwd, home);
    for (const file of reads.files) {
      if (statSync(file, { throwIfNoEntry: false })?.isFile() !== true) continue;
      const real = realOrGiven(file);
      byFile.add(real);
      sayHeld(real, starter);
      names.set(file, { path: file, interpreter: null });
    }
    for (const folder of reads.folders) {
      const exists = lstatSync(folder, { throwIfNoEntry: false }) !== undefined;
      folders.add(exists ? realOrGiven(folder) : join(realOrGiven(dirname(folder)), basename(folder)));
      // One made empty for the session holds nothing anyone uses: not said.
      if (exists) sayHeld(realOrGiven(folder), starter);
    }
    for (const { tree, why, heldBelowRoot } of reads.notHeld) {
      const real = realOrGiven(tree);
      if (!realRoots.some((root) => isWithinDirectory(real, root))) continue;
      if (heldBelowRoot === true && !realRoots.includes(real)) folders.add(real);
      else notHeld.push({ starter, tree: real, why });
    }
  }
  return {
    byFile: [...byFile],
    names: [...names.values()],
    folders: [...folders],
    notHeld,
    heldInWorkspace: [...heldInWorkspace.values()],
  };
}
