import { sep } from 'node:path';
import type { DecisionRealPaths } from './decision-real-paths.js';

/** Characters that make a path segment a glob (`*`, `?`, `[…]`). */
export const GLOB_CHARS = /[*?[]/;

/** The most folders one glob word is listed in (a glob in several folder parts of a large tree): past it the rest stay as written. */
const MAX_GLOB_FOLDERS = 64;

/**
 * The files an absolute glob path stands for, segment by segment (`~/.ss?/id_*`, `*\/.env`): the
 * matches in each listed folder, and where a folder is missing or nothing matches, the pattern as
 * written (bash leaves an unmatched glob as it is). The pattern path itself is always among them.
 * `*` and `?` match names starting with a dot too (`dotglob` may be on).
 */
export function globPaths(path: string, reals: DecisionRealPaths): string[] {
  const segments = path.split(sep);
  let current = [segments[0] ?? ''];
  let listed = 0;
  for (const segment of segments.slice(1)) {
    if (!GLOB_CHARS.test(segment) || listed >= MAX_GLOB_FOLDERS) {
      current = current.map((folder) => `${folder}${sep}${segment}`);
      continue;
    }
    const pattern = segmentPattern(segment);
    const next: string[] = [];
    for (const folder of current) {
      const entries = listed < MAX_GLOB_FOLDERS ? reals.list(folder || sep) : [];
      listed++;
      const matches = entries.filter((entry) => pattern.test(entry));
      if (matches.length === 0) next.push(`${folder}${sep}${segment}`);
      for (const match of matches) next.push(`${folder}${sep}${match}`);
    }
    current = next;
  }
  return current.includes(path) ? current : [path, ...current];
}

/**
 * Segments compiled before, by their text (the regular expression is the text's alone, and one
 * without the `g` flag keeps no state between tests): a command's `*.ts` is compiled once, not at
 * every decision. Emptied when full.
 */
const compiledSegments = new Map<string, RegExp>();
const MAX_COMPILED_SEGMENTS = 64;
/** Longer segments are compiled every time (a hostile word can be megabytes long). */
const MAX_COMPILED_SEGMENT_TEXT = 256;

function segmentPattern(segment: string): RegExp {
  if (segment.length > MAX_COMPILED_SEGMENT_TEXT) return globToRegExp(segment);
  let pattern = compiledSegments.get(segment);
  if (pattern === undefined) {
    pattern = globToRegExp(segment);
    if (compiledSegments.size >= MAX_COMPILED_SEGMENTS) compiledSegments.clear();
    compiledSegments.set(segment, pattern);
  }
  return pattern;
}

/** A glob segment as a regular expression (`[!a]` and `[^a]` negate, as in bash). */
export function globToRegExp(glob: string): RegExp {
  let source = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === '*') source += '.*';
    else if (c === '?') source += '.';
    else if (c === '[' && glob[i + 1] === '!') {
      source += '[^';
      i++;
    } else if (c === '[') source += '[';
    else if (c === ']') source += c;
    else source += c.replace(/[.+^${}()|\\/]/g, '\\$&');
  }
  try {
    return new RegExp(`^${source}$`, 's');
  } catch {
    return /^$/;
  }
}
