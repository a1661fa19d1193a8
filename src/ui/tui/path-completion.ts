import { execFile } from 'node:child_process';
import {
  type AutocompleteItem,
  type AutocompleteProvider,
  type AutocompleteSuggestions,
  fuzzyFilter,
} from '@mariozechner/pi-tui';
import { glob } from 'tinyglobby';
import { withTrustedPath } from '../../util/path-entries.js';
import { sanitizeForTerminal } from './sanitize-for-terminal.js';

/** Kimi CLI gives `git ls-files` this long before it walks the folder instead. */
const GIT_TIMEOUT_MS = 5000;
/** A listing is reused this long (files change while the agent works). */
const LISTING_TTL_MS = 10_000;
const MAX_FILES = 20_000;
const MAX_SUGGESTIONS = 20;

/**
 * `@` completes paths in the work dir: git-tracked files first, then untracked ones git does not
 * ignore (outside a git repository: a walk of the folder); fuzzy-matched. Everything else (slash
 * commands) goes to `inner`.
 */
export class PathCompletion implements AutocompleteProvider {
  private listing: { at: number; files: Promise<FileGroups> } | null = null;

  constructor(
    private readonly inner: AutocompleteProvider,
    private readonly workDir: string,
    /**
     * Whether git may run in the work dir: only in a trusted folder, since a repository's own
     * `.git/config` (core.fsmonitor) runs a command on `git ls-files`. Otherwise the folder is walked.
     */
    private readonly gitAllowed: () => boolean = () => false,
  ) {}

  async getSuggestions(
    lines: string[],
    cursorLine: number,
    cursorCol: number,
    options: { signal: AbortSignal; force?: boolean },
  ): Promise<AutocompleteSuggestions | null> {
    const before = (lines[cursorLine] ?? '').slice(0, cursorCol);
    const query = /(?:^|\s)@([^\s"]*)$/.exec(before)?.[1];
    if (query === undefined) return this.inner.getSuggestions(lines, cursorLine, cursorCol, options);
    const groups = await this.files();
    if (options.signal.aborted) return null;
    // Matched within each group, so a tracked file comes before any untracked one.
    const matches = groups.flatMap((files) => (query ? fuzzyFilter(files, query, (file) => file) : files));
    // A file name is the workspace's text: the list draws it and the editor would hold it as typed,
    // so a name the sanitiser would change (escapes, bidi controls, blank runs) is not offered.
    const items: AutocompleteItem[] = matches
      .filter((file) => sanitizeForTerminal(file) === file)
      .slice(0, MAX_SUGGESTIONS)
      .map((file) => ({ value: `@${file}`, label: file }));
    return items.length > 0 ? { items, prefix: `@${query}` } : null;
  }

  applyCompletion(
    lines: string[],
    cursorLine: number,
    cursorCol: number,
    item: AutocompleteItem,
    prefix: string,
  ) {
    return this.inner.applyCompletion(lines, cursorLine, cursorCol, item, prefix);
  }

  private files(): Promise<FileGroups> {
    if (!this.listing || Date.now() - this.listing.at > LISTING_TTL_MS) {
      this.listing = { at: Date.now(), files: listFiles(this.workDir, this.gitAllowed()) };
    }
    return this.listing.files;
  }
}

/** Files in the order they are offered: git-tracked, then the rest. */
type FileGroups = string[][];

async function listFiles(workDir: string, gitAllowed: boolean): Promise<FileGroups> {
  const [tracked, untracked] = gitAllowed
    ? await Promise.all([
        git(workDir, ['ls-files', '--cached', '--recurse-submodules']),
        git(workDir, ['ls-files', '--others', '--exclude-standard']),
      ])
    : [null, null];
  if (tracked !== null) return [tracked.slice(0, MAX_FILES), (untracked ?? []).slice(0, MAX_FILES)];
  const walked = await glob(['**/*'], {
    cwd: workDir,
    ignore: ['**/node_modules/**', '**/.git/**'],
    deep: 8,
    dot: false,
  }).catch(() => []);
  return [walked.sort().slice(0, MAX_FILES)];
}

function git(cwd: string, args: string[]): Promise<string[] | null> {
  return new Promise((resolve) => {
    // git from PATH's trusted entries: a `.` on PATH would run the work tree's own `git` at the
    // person's first `@`.
    const env = withTrustedPath(process.env, [cwd]);
    // Even in a trusted folder, the repository may be one a command made this session and the
    // sandbox has not cleaned yet (a background command still running): its core.fsmonitor is
    // never run for a listing.
    const guarded = ['-c', 'core.fsmonitor=false', ...args];
    execFile('git', guarded, { cwd, env, timeout: GIT_TIMEOUT_MS, maxBuffer: 64 << 20 }, (error, stdout) => {
      resolve(error ? null : stdout.split('\n').filter(Boolean));
    });
  });
}
