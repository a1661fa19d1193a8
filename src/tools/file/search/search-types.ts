export const OUTPUT_MODES = ['files_with_matches', 'content', 'count_matches'] as const;
export type OutputMode = (typeof OUTPUT_MODES)[number];

/** A search, with every default and path already worked out. */
export interface GrepRequest {
  pattern: string;
  /** Absolute file or directory to search. */
  searchPath: string;
  /** The working directory: ripgrep runs there, and `glob` filters are relative to it. */
  workDir: string;
  glob: string | null;
  fileType: string | null;
  mode: OutputMode;
  /** Context lines (content mode). */
  before: number;
  after: number;
  ignoreCase: boolean;
  multiline: boolean;
  /** Search files that ignore files (.gitignore, .ignore, .rgignore) leave out. */
  includeIgnored: boolean;
}

export interface SearchLimits {
  timeoutMs: number;
  /** Raw search output kept before the rest is dropped. */
  maxOutputBytes: number;
  signal: AbortSignal;
}

export interface LineHit {
  /** 1-based. */
  line: number;
  text: string;
  /** False for context lines. */
  isMatch: boolean;
}

/** What one file contributed: its lines (content mode) or its number of matches (count mode). */
export interface FileHits {
  /** Absolute. */
  path: string;
  lines: LineHit[];
  count: number;
}

export interface SearchOutcome {
  files: FileHits[];
  timedOut: boolean;
  bufferExceeded: boolean;
  /** Problems that did not stop the search (unreadable files, skipped large files). */
  warnings: string[];
}

/** The search could not run at all (bad regex, unknown type, ripgrep failing). */
export class GrepFailure extends Error {
  override name = 'GrepFailure';
}

/** Version-control folders never searched, even with `include_ignored`. */
export const VCS_DIRECTORIES = ['.git', '.svn', '.hg', '.bzr', '.jj', '.sl'] as const;
