import { lstatSync } from 'node:fs';
import { join } from 'node:path';
import { isWithinDirectory } from '../util/path-within.js';
import { realOrGiven } from '../util/real-or-given.js';
import { kimiNpmConfigFiles } from './sandbox-kimi-code.js';

/**
 * What `npx kimi-ts` reads in the folder the person starts it from, wherever kimi-ts is installed
 * (npx's cache, a global prefix, the project): a writable root's
 * - `.npmrc`: its `node-options` becomes NODE_OPTIONS of the next kimi-ts (`--require=./x.cjs`
 *   loads a command's code into it, outside any sandbox, with the API keys in its memory);
 * - `node_modules/.bin/kimi-ts`: npx runs the project's bin of that name before any other;
 * - `node_modules/.bin/node`: npx puts that folder first on PATH, where kimi-ts's
 *   `#!/usr/bin/env node` line finds its node.
 * Not `.yarnrc.yml`, `.pnpmfile.cjs`, `bunfig.toml`: npx reads none of them, and an empty one made
 * in their place would change how those tools see a project that does not use them.
 */
export const NPX_BIN_NAMES: readonly string[] = ['kimi-ts', 'node'];

/**
 * The roots' `.npmrc` files the sandbox binds read-only: the file itself, or, for a symlink, where it
 * leads when that is a file inside a writable root (the link is put back after each command:
 * npxKeptNames). One that is missing is not made (an empty `.npmrc` would show in `git status` for
 * the whole session, and a `git add -A` would take it): one a command makes is removed after it.
 * Real paths.
 */
export function workspaceNpmrcFiles(realRoots: readonly string[]): string[] {
  const files: string[] = [];
  for (const root of realRoots) {
    const path = join(root, '.npmrc');
    const stat = lstatSync(path, { throwIfNoEntry: false });
    if (stat?.isFile()) files.push(path);
    else if (stat?.isSymbolicLink()) {
      const real = realOrGiven(path);
      if (real !== path && realRoots.some((r) => isWithinDirectory(real, r)) && lstatSync(real).isFile())
        files.push(real);
    }
  }
  return files;
}

/**
 * The npm config files a command's sandbox binds read-only: each root's own `.npmrc`, whoever runs
 * kimi-ts from where, and (kimi-ts running from inside the workspace) those on the way to its install.
 */
export function heldNpmConfigFiles(realRoots: readonly string[], installedInWorkspace: boolean): string[] {
  const onTheWay = installedInWorkspace ? kimiNpmConfigFiles(realRoots) : [];
  return [...new Set([...onTheWay, ...workspaceNpmrcFiles(realRoots)])];
}

/**
 * Whether a write to `realPath` reaches a root's `.npmrc` (or where a symlinked one leads): refused
 * to file tools as to commands.
 */
export function isWorkspaceNpmrc(realPath: string, realRoots: readonly string[]): boolean {
  return realRoots.some((root) => {
    const path = join(root, '.npmrc');
    if (realPath === path) return true;
    // Where a symlinked one leads: a real path looked up only then (every file write asks).
    return (
      isWithinDirectory(realPath, root) &&
      lstatSync(path, { throwIfNoEntry: false })?.isSymbolicLink() === true &&
      realOrGiven(path) === realPath
    );
  });
}

/**
 * The names of the roots that KeptNamesGuard puts back after each command, each as first seen: the
 * `.npmrc` and the two `node_modules/.bin` names when missing (removed) or a symlink (put back).
 */
export function npxKeptNames(realRoots: readonly string[]): string[] {
  return realRoots.flatMap((root) => [
    join(root, '.npmrc'),
    ...NPX_BIN_NAMES.map((name) => join(root, 'node_modules', '.bin', name)),
  ]);
}
