import { allMatches } from './search-regex.js';
import type { LineHit, OutputMode } from './search-types.js';

export interface TextMatches {
  lines: LineHit[];
  count: number;
}

function stripCarriageReturn(line: string): string {
  return line.endsWith('\r') ? line.slice(0, -1) : line;
}

function splitLines(text: string): string[] {
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  return lines;
}

/** The matched lines plus `before`/`after` context lines around each, in line order. */
function withContext(lines: readonly string[], matched: ReadonlySet<number>, before: number, after: number) {
  const shown = new Set<number>();
  for (const index of matched) {
    for (let i = Math.max(0, index - before); i <= Math.min(lines.length - 1, index + after); i++)
      shown.add(i);
  }
  return [...shown]
    .sort((a, b) => a - b)
    .map(
      (index): LineHit => ({
        line: index + 1,
        text: stripCarriageReturn(lines[index]!),
        isMatch: matched.has(index),
      }),
    );
}

/**
 * Searches one file's text line by line, the way ripgrep does without `--multiline`. Returns null
 * when nothing matches. Files mode stops at the first match; count mode counts every match.
 */
export function matchLines(
  text: string,
  regex: RegExp,
  mode: OutputMode,
  before: number,
  after: number,
): TextMatches | null {
  const lines = splitLines(text);
  const matched = new Set<number>();
  let count = 0;
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index]!;
    regex.lastIndex = 0;
    if (!regex.test(line)) continue;
    matched.add(index);
    if (mode === 'files_with_matches') return { lines: [], count: 1 };
    if (mode === 'count_matches') for (const _ of allMatches(regex, line)) count++;
  }
  if (matched.size === 0) return null;
  return mode === 'content'
    ? { lines: withContext(lines, matched, before, after), count }
    : { lines: [], count };
}

/** Index of the line holding character `offset`, given the offsets where lines start. */
function lineAt(starts: readonly number[], offset: number): number {
  let low = 0;
  let high = starts.length - 1;
  while (low < high) {
    const mid = (low + high + 1) >> 1;
    if (starts[mid]! <= offset) low = mid;
    else high = mid - 1;
  }
  return low;
}

/** Multiline search: a match may span lines, and every line it touches is a matched line. */
export function matchMultiline(
  text: string,
  regex: RegExp,
  mode: OutputMode,
  before: number,
  after: number,
): TextMatches | null {
  const lines = splitLines(text);
  const starts = [0];
  for (let i = text.indexOf('\n'); i !== -1 && i + 1 < text.length; i = text.indexOf('\n', i + 1)) {
    starts.push(i + 1);
  }
  const matched = new Set<number>();
  let count = 0;
  for (const match of allMatches(regex, text)) {
    count++;
    if (mode === 'files_with_matches') return { lines: [], count: 1 };
    const first = lineAt(starts, match.index);
    const last = lineAt(starts, match.index + Math.max(match[0].length - 1, 0));
    for (let line = first; line <= last && line < lines.length; line++) matched.add(line);
  }
  if (count === 0) return null;
  return mode === 'content'
    ? { lines: withContext(lines, matched, before, after), count }
    : { lines: [], count };
}
