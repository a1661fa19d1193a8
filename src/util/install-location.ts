import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isWithinDirectory } from './path-within.js';
import { realOrGiven } from './real-or-given.js';

/**
 * The folder kimi-ts runs from (the one with its package.json), found from this module's own file:
 * dist/app/… when run unbundled, dist/bin/cli.bundle.cjs when bundled. Null when none is found (a
 * single executable, say).
 */
export function kimiInstallRoot(from: string = fileURLToPath(import.meta.url)): string | null {
  for (let dir = dirname(from); ; ) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest) && isKimiManifest(manifest)) return realOrGiven(dir);
    const parent = dirname(dir);
    if (parent === dir) return null;
    dir = parent;
  }
}

function isKimiManifest(path: string): boolean {
  try {
    return (JSON.parse(readFileSync(path, 'utf8')) as { name?: unknown }).name === 'kimi-ts';
  } catch {
    return false;
  }
}

/**
 * The writable folder of the session that holds kimi-ts's own install, or null. Then a command the
 * model runs (sandboxed: the workspace is writable) can change the code kimi-ts loads later in its
 * own process: its files, and the packages it loads only when first needed from the node_modules
 * around it (a provider's SDK, the MCP SDK, the shell parser). `npm i -D kimi-ts` then `npx kimi-ts`
 * is that case.
 */
export function workspaceHoldingInstall(
  writable: readonly string[],
  installRoot: string | null = kimiInstallRoot(),
): string | null {
  if (installRoot === null) return null;
  for (const dir of writable) {
    const real = realOrGiven(resolve(dir));
    if (isWithinDirectory(installRoot, real)) return real;
  }
  return null;
}
