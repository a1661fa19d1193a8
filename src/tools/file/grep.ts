import { stat } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { z } from 'zod';
import { type ToolReturnValue, toolError } from '../../kosong/index.js';
import { type Effect, realPathOf, resolveFileTarget, type SessionPolicy } from '../../policy/index.js';
import { declareParameters } from '../../toolset/declared-parameters.js';
import { toolFactory } from '../../toolset/loading/dependencies.js';
import { loadToolDescription } from '../../toolset/loading/tool-description.js';
import { defineTool } from '../../toolset/tool-definition.js';
import { ToolResultBuilder } from '../../toolset/tool-result-builder.js';
import { isMissingFileError } from './fs-errors.js';
import { builtinSearch } from './search/builtin-search.js';
import { findRipgrep } from './search/find-ripgrep.js';
import { formatResults, sortByRecency } from './search/format-results.js';
import { ripgrepSearch } from './search/ripgrep-search.js';
import {
  GrepFailure,
  type GrepRequest,
  OUTPUT_MODES,
  type SearchLimits,
  type SearchOutcome,
} from './search/search-types.js';
import { expandHome } from './workspace-path.js';

export const DEFAULT_HEAD_LIMIT = 250;
export const GREP_TIMEOUT_MS = 20_000;
export const MAX_GREP_OUTPUT_BYTES = 20 * 1024 * 1024;
/** Set to `builtin` to search without ripgrep even when it is installed (or `ripgrep` to require it). */
export const GREP_BACKEND_ENV = 'KIMI_TS_GREP_BACKEND';

const contextLines = (flag: string, meaning: string) =>
  z
    .number()
    .int()
    .min(0)
    .nullable()
    .default(null)
    .describe(`Number of lines to show ${meaning} each match (like \`${flag}\`). Content mode only.`);

const grepParams = declareParameters('Grep', () =>
  z.object({
    pattern: z.string().describe('The regular expression to search for in file contents.'),
    path: z
      .string()
      .default('.')
      .describe('The file or directory to search. Defaults to the working directory.'),
    glob: z
      .string()
      .nullable()
      .default(null)
      .describe('Only search files matching this glob, e.g. `*.js` or `*.{ts,tsx}`. No filter by default.'),
    output_mode: z
      .enum(OUTPUT_MODES)
      .default('files_with_matches')
      .describe(
        '`files_with_matches`: paths of matching files (default); `content`: matching lines (supports `-B`, `-A`, `-C`, `-n`); `count_matches`: number of matches per file.',
      ),
    '-B': contextLines('-B', 'before'),
    '-A': contextLines('-A', 'after'),
    '-C': contextLines('-C', 'before and after'),
    '-n': z.boolean().default(true).describe('Show line numbers (like `-n`). Content mode only.'),
    '-i': z.boolean().default(false).describe('Ignore case (like `-i`).'),
    type: z
      .string()
      .nullable()
      .default(null)
      .describe('Only search files of this type, e.g. `py`, `rust`, `js`, `ts`, `go`, `java`.'),
    head_limit: z
      .number()
      .int()
      .min(0)
      .default(DEFAULT_HEAD_LIMIT)
      .describe(
        `Return at most this many lines (content) or entries (files, counts). Default ${DEFAULT_HEAD_LIMIT}; 0 for no limit.`,
      ),
    offset: z
      .number()
      .int()
      .min(0)
      .default(0)
      .describe('Skip this many lines or entries first; use with `head_limit` to page through results.'),
    multiline: z
      .boolean()
      .default(false)
      .describe('Let matches span lines; `.` also matches line breaks. Off by default.'),
    include_ignored: z
      .boolean()
      .default(false)
      .describe('Also search files excluded by .gitignore, .ignore or .rgignore. Off by default.'),
  }),
);

type GrepParams = z.output<ReturnType<typeof grepParams.schema>>;

export type GrepBackend = 'auto' | 'ripgrep' | 'builtin';

export interface GrepToolOptions {
  workDir: string;
  description: string;
  /** `auto`: ripgrep when it is on PATH, else the built-in search. */
  backend?: GrepBackend | undefined;
  /** A ripgrep binary to use instead of looking one up on PATH. */
  ripgrepPath?: string | undefined;
  timeoutMs?: number | undefined;
  maxOutputBytes?: number | undefined;
  /** Decides which files are secret (by real path, name or content). */
  policy: SessionPolicy;
}

/**
 * The files found that hold secrets by their real path, name or content, except the one searched
 * for by its own path (the policy asked about that one before the search ran).
 */
async function secretFiles(
  files: readonly { path: string }[],
  searchPath: string,
  policy: SessionPolicy,
): Promise<Set<string>> {
  const searched = await realPathOf(searchPath);
  const secret = new Set<string>();
  // A few at a time: each may read the head of its file, and a thousand open at once run out of
  // descriptors (a file that cannot be opened would then pass as holding nothing).
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < files.length) {
      const { path } = files[next++]!;
      const real = await realPathOf(path);
      if (real !== searched && (await policy.fileSecretReason(real, resolve(path))) !== null)
        secret.add(path);
    }
  };
  await Promise.all(Array.from({ length: Math.min(SECRET_CHECKS_AT_ONCE, files.length) }, worker));
  return secret;
}

/** How many matched files are checked for secrets at once. */
const SECRET_CHECKS_AT_ONCE = 16;

function seconds(ms: number): string {
  return `${ms / 1000}s`;
}

function describeWarnings(warnings: readonly string[]): string | null {
  if (warnings.length === 0) return null;
  const first = warnings[0]!.split('\n')[0];
  const more = warnings.length > 1 ? ` (and ${warnings.length - 1} more)` : '';
  return `Some files could not be searched: ${first}${more}.`;
}

export function createGrepTool(options: GrepToolOptions) {
  const timeoutMs = options.timeoutMs ?? GREP_TIMEOUT_MS;
  const maxOutputBytes = options.maxOutputBytes ?? MAX_GREP_OUTPUT_BYTES;
  const { policy } = options;

  const search = (request: GrepRequest, limits: SearchLimits): Promise<SearchOutcome> => {
    const backend = options.backend ?? 'auto';
    if (backend === 'builtin') return builtinSearch(request, limits);
    const rgPath = options.ripgrepPath ?? findRipgrep(process.env.PATH, [options.workDir]);
    if (rgPath) return ripgrepSearch(rgPath, request, limits);
    if (backend === 'ripgrep') throw new GrepFailure('ripgrep (rg) was not found on PATH');
    return builtinSearch(request, limits);
  };

  return defineTool({
    name: 'Grep',
    description: options.description,
    params: grepParams,
    effect: 'reads-files',
    effects: async ({ path }): Promise<Effect[]> => [
      { kind: 'read', target: await resolveFileTarget(path || '.', options.workDir), access: 'search' },
    ],
    async call(params: GrepParams, { signal }): Promise<ToolReturnValue> {
      const searchPath = resolve(options.workDir, expandHome(params.path || '.'));
      let isDirectory: boolean;
      try {
        const found = await stat(searchPath);
        isDirectory = found.isDirectory();
        // A FIFO, socket or device named as the path: a search would read it and wait, for ever or
        // until the timeout (rg reads what it is given).
        if (!isDirectory && !found.isFile())
          return toolError(`\`${params.path}\` is not a file or folder.`, 'Not a file or folder');
      } catch (error) {
        if (isMissingFileError(error))
          return toolError(`\`${params.path}\` does not exist.`, 'Path not found');
        return toolError(`Failed to grep. Error: ${String(error)}`, 'Failed to grep');
      }
      const content = params.output_mode === 'content';
      const before = content ? (params['-B'] ?? params['-C'] ?? 0) : 0;
      const after = content ? (params['-A'] ?? params['-C'] ?? 0) : 0;
      const request: GrepRequest = {
        pattern: params.pattern,
        searchPath,
        workDir: options.workDir,
        glob: params.glob || null,
        fileType: params.type || null,
        mode: params.output_mode,
        before,
        after,
        ignoreCase: params['-i'],
        multiline: params.multiline,
        includeIgnored: params.include_ignored,
      };

      let outcome: SearchOutcome;
      try {
        outcome = await search(request, { timeoutMs, maxOutputBytes, signal });
      } catch (error) {
        if (signal.aborted) throw error;
        const detail = error instanceof Error ? error.message : String(error);
        return toolError(`Failed to grep. Error: ${detail}`, 'Failed to grep');
      }
      if (outcome.timedOut && outcome.files.length === 0) {
        return toolError(
          `Grep timed out after ${seconds(timeoutMs)}. Try a more specific path or pattern.`,
          'Grep timed out',
        );
      }
      const files =
        request.mode === 'files_with_matches' ? await sortByRecency(outcome.files) : outcome.files;
      const formatted = formatResults(outcome, files, {
        secretFiles: await secretFiles(files, searchPath, policy),
        mode: request.mode,
        baseDir: isDirectory ? searchPath : dirname(searchPath),
        lineNumbers: params['-n'],
        withContext: before > 0 || after > 0,
        pagination: { headLimit: params.head_limit, offset: params.offset },
        timeoutText: seconds(timeoutMs),
      });
      const notes = [...formatted.notes];
      const warning = describeWarnings(outcome.warnings);
      if (warning) notes.push(warning);
      const builder = new ToolResultBuilder();
      if (formatted.noMatches) return builder.ok(['No matches found.', ...notes].join(' '));
      builder.write(formatted.output);
      return builder.ok(notes.join(' '));
    },
  });
}

export const Grep = toolFactory(
  ['workDir', 'descriptionVars', 'policy'],
  async ({ workDir, descriptionVars, policy }) => {
    const requested = process.env[GREP_BACKEND_ENV];
    const backend: GrepBackend = requested === 'builtin' || requested === 'ripgrep' ? requested : 'auto';
    const description = await loadToolDescription(new URL('./grep.md', import.meta.url), {
      ...descriptionVars,
      HEAD_LIMIT: String(DEFAULT_HEAD_LIMIT),
      TIMEOUT_SECONDS: String(GREP_TIMEOUT_MS / 1000),
    });
    return createGrepTool({ workDir, description, backend, policy });
  },
);
