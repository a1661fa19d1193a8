import type { Dirent } from 'node:fs';
import { readdir, readFile, stat } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { fileTypeMatcher } from './file-types.js';
import { compileGlobRule, type GlobRule } from './glob-regex.js';
import { IgnoreStack, loadIgnoreFile } from './ignore-rules.js';
import { matchLines, matchMultiline, type TextMatches } from './line-matches.js';
import { compileSearchRegex } from './search-regex.js';
import {
  type FileHits,
  GrepFailure,
  type GrepRequest,
  type SearchLimits,
  type SearchOutcome,
  VCS_DIRECTORIES,
} from './search-types.js';

/** The built-in search reads whole files; bigger ones are left out with a warning. */
export const MAX_BUILTIN_FILE_BYTES = 64 * 1024 * 1024;

const VCS_NAMES = new Set<string>(VCS_DIRECTORIES);

async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch {
    return false;
  }
}

async function findRepoRoot(dir: string): Promise<string | null> {
  for (let current = dir; ; current = dirname(current)) {
    if (await exists(join(current, '.git'))) return current;
    if (dirname(current) === current) return null;
  }
}

/**
 * A search in plain JavaScript for machines without ripgrep, behaving like `rg --hidden` with the
 * fixed excludes: hidden files are searched, version-control folders are not, `.gitignore` (inside
 * a git repository), `.ignore` and `.rgignore` are honoured at every level unless `includeIgnored`,
 * binary files (a NUL byte) and symbolic links are skipped, and a file named explicitly is always
 * searched. Stops at the deadline or the output budget with what it found so far.
 */
export async function builtinSearch(request: GrepRequest, limits: SearchLimits): Promise<SearchOutcome> {
  const regex = compileSearchRegex(request.pattern, request);
  const typeMatches = request.fileType ? fileTypeMatcher(request.fileType) : null;
  if (request.fileType && !typeMatches) throw new GrepFailure(`unrecognized file type: ${request.fileType}`);
  const override = request.glob ? compileGlobRule(request.glob) : null;

  const outcome: SearchOutcome = { files: [], timedOut: false, bufferExceeded: false, warnings: [] };
  const deadline = Date.now() + limits.timeoutMs;
  let outputBytes = 0;
  const stopped = (): boolean => outcome.timedOut || outcome.bufferExceeded;
  const match = request.multiline ? matchMultiline : matchLines;

  const searchFile = async (path: string): Promise<void> => {
    limits.signal.throwIfAborted();
    let found: TextMatches | null = null;
    try {
      const { size } = await stat(path);
      if (size > MAX_BUILTIN_FILE_BYTES) {
        outcome.warnings.push(`${path}: skipped, larger than ${MAX_BUILTIN_FILE_BYTES} bytes`);
        return;
      }
      const data = await readFile(path, { signal: limits.signal });
      if (!data.includes(0)) {
        found = match(data.toString('utf8'), regex, request.mode, request.before, request.after);
      }
    } catch (error) {
      limits.signal.throwIfAborted();
      outcome.warnings.push(`${path}: ${error instanceof Error ? error.message : String(error)}`);
    }
    if (found) {
      const hits: FileHits = { path, lines: found.lines, count: found.count };
      outcome.files.push(hits);
      outputBytes += path.length + 16 + hits.lines.reduce((sum, line) => sum + line.text.length + 16, 0);
      if (outputBytes > limits.maxOutputBytes) outcome.bufferExceeded = true;
    }
    // Checked after the file, so a search always makes some progress before it can time out.
    if (Date.now() >= deadline) outcome.timedOut = true;
  };

  const info = await stat(request.searchPath);
  if (!info.isDirectory()) {
    await searchFile(request.searchPath);
    return outcome;
  }

  const ignores = new IgnoreStack();
  const repoRoot = request.includeIgnored ? null : await findRepoRoot(request.searchPath);
  const enterDirectory = async (dir: string): Promise<number> => {
    if (request.includeIgnored) return 0;
    let pushed = 0;
    if (repoRoot !== null && dir === repoRoot)
      pushed += ignores.push(await loadIgnoreFile(dir, '.git/info/exclude'));
    if (repoRoot !== null && !relative(repoRoot, dir).startsWith('..')) {
      pushed += ignores.push(await loadIgnoreFile(dir, '.gitignore'));
    }
    pushed += ignores.push(await loadIgnoreFile(dir, '.ignore'));
    pushed += ignores.push(await loadIgnoreFile(dir, '.rgignore'));
    return pushed;
  };
  const overridePath = (path: string): string => {
    const rel = relative(request.workDir, path);
    return (rel.startsWith('..') ? path.replace(/^\/+/, '') : rel).replaceAll('\\', '/');
  };
  const excludedByOverride = (path: string, isDir: boolean, rule: GlobRule | null): boolean => {
    if (!rule) return false;
    const matches = (!rule.dirOnly || isDir) && rule.matches(overridePath(path));
    return rule.negated ? matches : !isDir && !matches;
  };

  const walk = async (dir: string): Promise<void> => {
    limits.signal.throwIfAborted();
    const pushed = await enterDirectory(dir);
    try {
      let entries: Dirent[];
      try {
        entries = await readdir(dir, { withFileTypes: true });
      } catch (error) {
        outcome.warnings.push(`${dir}: ${error instanceof Error ? error.message : String(error)}`);
        return;
      }
      entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
      for (const entry of entries) {
        if (stopped()) return;
        if (VCS_NAMES.has(entry.name) || entry.isSymbolicLink()) continue;
        const path = join(dir, entry.name);
        const isDir = entry.isDirectory();
        if (!isDir && !entry.isFile()) continue;
        if (ignores.isIgnored(path, isDir) || excludedByOverride(path, isDir, override)) continue;
        if (isDir) await walk(path);
        else if (!typeMatches || typeMatches(entry.name)) await searchFile(path);
      }
    } finally {
      ignores.pop(pushed);
    }
  };

  // Ignore files of the folders above the search path apply too, as in ripgrep.
  const ancestors: string[] = [];
  for (let dir = dirname(request.searchPath); ; dir = dirname(dir)) {
    ancestors.unshift(dir);
    if (dirname(dir) === dir) break;
  }
  for (const dir of ancestors) await enterDirectory(dir);
  await walk(request.searchPath);
  return outcome;
}
