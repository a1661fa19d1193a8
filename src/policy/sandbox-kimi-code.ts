import { lstatSync, mkdirSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { kimiInstallRoot } from '../util/install-location.js';
import { isWithinDirectory } from '../util/path-within.js';
import { realOrGiven } from '../util/real-or-given.js';

/**
 * kimi-ts's own code, when it runs from inside a folder commands may write (`npm i -D kimi-ts` then
 * `npx kimi-ts`, or a clone of kimi-ts in the workspace): the folders the sandbox keeps read-only,
 * for commands and file tools alike, so nothing the model runs changes the code kimi-ts loads later
 * in its own process, outside any sandbox (the packages it loads only when first needed: another
 * provider's SDK, the MCP SDK, the shell parser, the web page readers).
 *
 * - its build output (`dist/`): the whole package when it is installed in a `node_modules`;
 * - every `node_modules` folder Node's lookup passes through from the install (the install's own,
 *   then each parent's), existing or not: a package missing from the first is looked for in the
 *   next, so a `node_modules` a command made higher up would be found.
 *
 * Only the part inside `realWritableRoots` (real paths), and only when the install itself is inside
 * one: otherwise nothing a command may write is on that path. The outermost of nested folders.
 *
 * An install in a plain subfolder of the workspace (`tools/kimi-ts`, a clone) has folders above it
 * that a command could rename and make again with code of its own: those are pinned
 * (sandbox-pinned-parents.ts). In the usual layouts there are none: the workspace itself (a mount point) holds
 * the install (a clone worked on) or its `node_modules` (a mount point here) does.
 */
export function kimiCodeFolders(
  realWritableRoots: readonly string[],
  installRoot: string | null = installRootOfThisProcess(),
): string[] {
  if (installRoot === null) return [];
  const writable = (path: string) => realWritableRoots.some((root) => isWithinDirectory(path, root));
  if (!writable(installRoot)) return [];
  const candidates = [installedPackage(installRoot) ? installRoot : join(installRoot, 'dist')];
  for (let dir = installRoot; ; ) {
    if (basename(dir) !== 'node_modules') candidates.push(join(dir, 'node_modules'));
    const parent = dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  const inside = candidates.map(realOrGiven).filter(writable);
  return inside.filter(
    (path, i) => !inside.some((other, j) => j !== i && other !== path && isWithinDirectory(path, other)),
  );
}

/**
 * npm's project config files on the way from the workspace root to the install: the `.npmrc` of each
 * folder from the install up to the root holding it, existing or not, but none inside the code
 * folders (read-only already). `npx kimi-ts` reads the project's `.npmrc`, and its `node-options`
 * becomes NODE_OPTIONS of the next kimi-ts: `--require=./preload.cjs` would load a command's code
 * into it, outside any sandbox, with the API keys in its memory.
 */
export function kimiNpmConfigFiles(
  realWritableRoots: readonly string[],
  installRoot: string | null = installRootOfThisProcess(),
): string[] {
  if (installRoot === null) return [];
  const real = realOrGiven(installRoot);
  const root = realWritableRoots.find((r) => isWithinDirectory(real, r));
  if (root === undefined) return [];
  const held = kimiCodeFolders(realWritableRoots, installRoot);
  const files: string[] = [];
  for (let dir = real; isWithinDirectory(dir, root); dir = dirname(dir)) {
    const file = join(dir, '.npmrc');
    if (!held.some((folder) => isWithinDirectory(file, folder))) files.push(file);
    if (dir === root) break;
  }
  return files;
}

let installRoot: string | null | undefined;

/** Where this process runs from: found once (a walk up the folders reading package.json files). */
function installRootOfThisProcess(): string | null {
  if (installRoot === undefined) installRoot = kimiInstallRoot();
  return installRoot;
}

/** Whether the install lies in a `node_modules` (`…/node_modules/kimi-ts`, or a scope's folder). */
function installedPackage(installRoot: string): boolean {
  const parent = dirname(installRoot);
  return basename(parent) === 'node_modules' || basename(dirname(parent)) === 'node_modules';
}

/**
 * bubblewrap's arguments that keep kimi-ts's code folders (`kimiCodeFolders`) read-only: each bound
 * onto itself; one that does not exist is made (empty) first and recorded in `placeholders`
 * (removed when the session ends, if still empty), so a command cannot make it with content of its own.
 */
export function kimiCodeReadOnly(
  folders: readonly string[],
  placeholders: Set<string>,
  /** kimiNpmConfigFiles: each bound onto itself, one that does not exist made (empty) first. */
  npmConfigFiles: readonly string[] = [],
): string[] {
  const args: string[] = [];
  for (const file of npmConfigFiles) {
    const stat = lstatSync(file, { throwIfNoEntry: false });
    if (stat === undefined) {
      try {
        writeFileSync(file, '', { flag: 'wx' });
        placeholders.add(file);
      } catch {
        continue; // cannot be made here: then a command cannot make it either
      }
    } else if (!stat.isFile()) continue; // a symlink (bwrap would follow it) or a folder: not bound
    args.push('--ro-bind', file, file);
  }
  for (const path of folders) {
    const stat = lstatSync(path, { throwIfNoEntry: false });
    if (stat === undefined) {
      try {
        mkdirSync(path);
        placeholders.add(path);
      } catch {
        continue; // cannot be made here (its parent is missing): then a command cannot make it either
      }
    } else if (!stat.isDirectory()) continue; // a file, or a link that leads nowhere: nothing to bind
    args.push('--ro-bind', path, path);
  }
  return args;
}
