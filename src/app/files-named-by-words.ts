import { statSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { realOrGiven } from '../util/real-or-given.js';

/**
 * The existing files a command's words name (`./scripts/format.sh`, `mcp/server.mjs`, `~/bin/x`):
 * each word, relative to `baseDir` (where the command runs) or absolute, `~/` expanded against `home`,
 * that is a file. Real paths. Words that name nothing (program names, flags) are left out.
 */
export function filesNamedByWords(words: readonly string[], baseDir: string, home: string): string[] {
  const files = new Set<string>();
  for (const word of words) {
    const path = pathOfWord(word, baseDir, home);
    if (statSync(path, { throwIfNoEntry: false })?.isFile()) files.add(realOrGiven(path));
  }
  return [...files];
}

/** The path a command's word names: relative to `baseDir` or absolute, `~/` expanded against `home`. */
export function pathOfWord(word: string, baseDir: string, home: string): string {
  if (word.startsWith('~/')) return resolve(home, word.slice(2));
  return isAbsolute(word) ? word : resolve(baseDir, word);
}
