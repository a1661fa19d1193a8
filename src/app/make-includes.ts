import { closeSync, openSync, readSync, statSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';

/**
 * The files makefiles include (`include`, `-include`, `sinclude`), as make finds them: a relative
 * name in make's folder first, then in each `-I` folder (the system's include folders hold no work-tree
 * file). Each is read in turn for its own includes. A hook's `make` runs their rules as it runs the
 * Makefile's, so they are held as it is (launcher-reads.ts). A name make builds when it runs
 * (`$(wildcard *.mk)`, `$(DIR)/x.mk`) cannot be known here: `unsure` says so, to be warned of.
 */
export interface MakeIncludes {
  readonly files: string[];
  readonly unsure: string | null;
}

/** Bounds: a makefile read up to this many bytes; this many files in all; includes this deep. */
const MAX_BYTES = 1 << 20;
const MAX_FILES = 64;
const MAX_DEPTH = 8;

const INCLUDE = /^[ \t]*(?:-include|sinclude|include)[ \t]+(.*)$/;

export function makeIncludes(
  makefiles: readonly string[],
  dir: string,
  includeDirs: readonly string[],
): MakeIncludes {
  const files: string[] = [];
  const seen = new Set<string>(makefiles);
  let unsure: string | null = null;
  let level: readonly string[] = makefiles;
  for (let depth = 0; depth < MAX_DEPTH && level.length > 0; depth++) {
    const next: string[] = [];
    for (const makefile of level) {
      for (const name of includedNames(makefile)) {
        if (/[$*?[]/.test(name)) {
          unsure ??= `an include make names when it runs (\`${name}\`)`;
          continue;
        }
        const candidates = isAbsolute(name)
          ? [name]
          : [dir, ...includeDirs].map((folder) => join(folder, name));
        for (const file of candidates) {
          if (seen.has(file)) continue;
          if (seen.size >= MAX_FILES)
            return { files, unsure: unsure ?? 'more included makefiles than kimi-ts reads' };
          seen.add(file);
          files.push(file);
          next.push(file);
        }
      }
    }
    level = next;
  }
  if (level.length > 0) unsure ??= 'includes nested deeper than kimi-ts reads';
  return { files, unsure };
}

/** The names a makefile's include lines give (continued lines joined, comments and recipes left out). */
function includedNames(makefile: string): string[] {
  const text = readStart(makefile);
  if (text === null || !text.includes('include')) return [];
  const names: string[] = [];
  const lines = text.replace(/\\\r?\n/g, ' ').split(/\r?\n/);
  for (const line of lines) {
    if (line.startsWith('\t')) continue; // a recipe's line
    const found = INCLUDE.exec(line.replace(/#.*$/, ''));
    if (found)
      names.push(
        ...found[1]!
          .trim()
          .split(/[ \t]+/)
          .filter((name) => name !== ''),
      );
  }
  return names;
}

/** A regular file's first MAX_BYTES as text; null for none (missing, a folder, unreadable). */
function readStart(path: string): string | null {
  try {
    if (!statSync(path).isFile()) return null;
    const fd = openSync(path, 'r');
    try {
      const buffer = Buffer.alloc(MAX_BYTES);
      const length = readSync(fd, buffer, 0, MAX_BYTES, 0);
      return buffer.subarray(0, length).toString('utf8');
    } finally {
      closeSync(fd);
    }
  } catch {
    return null;
  }
}
