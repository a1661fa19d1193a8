import { stat } from 'node:fs/promises';
import { relative } from 'node:path';
import { comparePaths } from '../glob.js';
import type { FileHits, OutputMode, SearchOutcome } from './search-types.js';

export interface Pagination {
  /** Lines or entries shown; 0 = all. */
  headLimit: number;
  /** Lines or entries skipped first. */
  offset: number;
}

export interface FormattedResult {
  output: string;
  /** Sentences for the result message, in order. */
  notes: string[];
  /** Nothing matched (before pagination). */
  noMatches: boolean;
}

/** Most recently modified first (what a developer usually wants), then by path. */
export async function sortByRecency(files: FileHits[]): Promise<FileHits[]> {
  const times = await Promise.all(
    files.map(async (file) => {
      try {
        return (await stat(file.path)).mtimeMs;
      } catch {
        return 0;
      }
    }),
  );
  return files
    .map((file, index) => ({ file, time: times[index]! }))
    .sort((a, b) => b.time - a.time || comparePaths(a.file.path, b.file.path))
    .map(({ file }) => file);
}

function contentLines(
  files: readonly FileHits[],
  display: (path: string) => string,
  withNumbers: boolean,
  withContext: boolean,
): string[] {
  const lines: string[] = [];
  for (const file of files) {
    const name = display(file.path);
    let previous: number | null = null;
    for (const hit of file.lines) {
      if (withContext && lines.length > 0 && (previous === null || hit.line !== previous + 1))
        lines.push('--');
      const separator = hit.isMatch ? ':' : '-';
      lines.push(
        withNumbers
          ? `${name}${separator}${hit.line}${separator}${hit.text}`
          : `${name}${separator}${hit.text}`,
      );
      previous = hit.line;
    }
  }
  return lines;
}

export interface FormatOptions {
  /** Files (as the search reported them) that hold secrets by their real path: left out. */
  secretFiles: ReadonlySet<string>;
  mode: OutputMode;
  /** Output paths are relative to this directory. */
  baseDir: string;
  lineNumbers: boolean;
  withContext: boolean;
  pagination: Pagination;
  /** For messages, e.g. "20s". */
  timeoutText: string;
}

/**
 * Turns a search outcome into the text the model reads: sensitive files dropped (silently),
 * paths relative to the search base, files mode by recency and the other modes by path, then one
 * page of `headLimit` lines from `offset`, and the notes that explain what was left out.
 */
export function formatResults(
  outcome: SearchOutcome,
  files: readonly FileHits[],
  options: FormatOptions,
): FormattedResult {
  const display = (path: string): string => relative(options.baseDir, path).replaceAll('\\', '/') || path;
  // Secret files go without a word: a note that named them only when they matched would answer
  // yes/no guesses about their content (the count of a pattern in the agent's config).
  const kept = files.filter((file) => !options.secretFiles.has(file.path));
  const ordered =
    options.mode === 'files_with_matches' ? kept : [...kept].sort((a, b) => comparePaths(a.path, b.path));

  let lines: string[];
  const notes: string[] = [];
  switch (options.mode) {
    case 'files_with_matches':
      lines = ordered.map((file) => display(file.path));
      break;
    case 'count_matches': {
      lines = ordered.map((file) => `${display(file.path)}:${file.count}`);
      const total = ordered.reduce((sum, file) => sum + file.count, 0);
      if (ordered.length > 0) notes.push(`Found ${total} total occurrences across ${ordered.length} files.`);
      break;
    }
    case 'content':
      lines = contentLines(ordered, display, options.lineNumbers, options.withContext);
      break;
  }

  const { headLimit, offset } = options.pagination;
  const end = headLimit > 0 ? offset + headLimit : lines.length;
  const page = lines.slice(offset, end);
  if (end < lines.length) {
    notes.push(
      `Results truncated to ${headLimit} lines (total: ${lines.length}). Use offset=${end} to see more.`,
    );
  } else if (offset > 0 && page.length === 0 && lines.length > 0) {
    notes.push(`Offset ${offset} is past the end of the results (total: ${lines.length}).`);
  }
  if (outcome.timedOut) notes.push(`Grep timed out after ${options.timeoutText}. Partial results returned.`);
  if (outcome.bufferExceeded) notes.push('Output exceeded buffer limit. Some results omitted.');
  return { output: page.join('\n'), notes, noMatches: lines.length === 0 };
}
