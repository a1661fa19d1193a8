import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, isAbsolute, join } from 'node:path';

const found = new Map<string, string | null>();

/** The `rg` executable on PATH, or null. Looked up once per PATH value. */
export function findRipgrep(pathVariable: string | undefined = process.env.PATH): string | null {
  const key = pathVariable ?? '';
  const cached = found.get(key);
  if (cached !== undefined) return cached;
  const names = process.platform === 'win32' ? ['rg.exe', 'rg'] : ['rg'];
  let result: string | null = null;
  search: for (const dir of key.split(delimiter)) {
    // A relative entry (`.`, `bin`) names a folder of the work dir: the repository's own `rg`.
    if (!dir || !isAbsolute(dir)) continue;
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
