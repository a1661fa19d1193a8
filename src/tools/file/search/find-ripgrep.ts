import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { trustedPathEntries } from '../../../util/path-entries.js';

const found = new Map<string, string | null>();

/**
 * The `rg` executable on PATH's trusted entries (src/util/path-entries.ts: not a `.`, not the work
 * tree's own `node_modules/.bin`, whose `rg` would be the work tree's), or null. Looked up once per
 * PATH value.
 */
export function findRipgrep(
  pathVariable: string | undefined = process.env.PATH,
  workFolders: readonly string[] = [],
): string | null {
  const key = trustedPathEntries(pathVariable, workFolders);
  const cached = found.get(key);
  if (cached !== undefined) return cached;
  const names = process.platform === 'win32' ? ['rg.exe', 'rg'] : ['rg'];
  let result: string | null = null;
  search: for (const dir of key.split(delimiter)) {
    for (const name of names) {
      const candidate = join(dir, name);
      try {
        if (!statSync(candidate).isFile()) continue;
        accessSync(candidate, constants.X_OK);
        result = candidate;
        break search;
      } catch {
        // not here
      }
    }
  }
  found.set(key, result);
  return result;
}
