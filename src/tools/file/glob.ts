import { realpath, stat } from 'node:fs/promises';
import { isAbsolute, join, sep } from 'node:path';
import { z } from 'zod';
import { toolError, toolOk } from '../../kosong/index.js';
import {
  type Effect,
  isWithinDirectory,
  realPathOf,
  resolveFileTarget,
  type SessionPolicy,
} from '../../policy/index.js';
import { declareParameters } from '../../toolset/declared-parameters.js';
import { toolFactory } from '../../toolset/loading/dependencies.js';
import { loadToolDescription } from '../../toolset/loading/tool-description.js';
import { defineTool } from '../../toolset/tool-definition.js';
import { listTopLevel } from './directory-listing.js';
import { describeFsError, isMissingFileError } from './fs-errors.js';
import { expandHome, isInWorkspace, type Workspace } from './workspace-path.js';

export const MAX_MATCHES = 1_000;

const globParams = declareParameters('Glob', () =>
  z.object({
    pattern: z.string().describe('The glob pattern to match files and directories against.'),
    directory: z
      .string()
      .nullable()
      .default(null)
      .describe('The absolute path of the directory to search in. Defaults to the working directory.'),
    include_dirs: z.boolean().default(true).describe('Whether to include directories in the results.'),
  }),
);

/** Compares paths segment by segment, so `a/b` sorts before `a.txt` as in a directory tree. */
export function comparePaths(a: string, b: string): number {
  const left = a.split('/');
  const right = b.split('/');
  for (let i = 0; i < Math.min(left.length, right.length); i++) {
    if (left[i] !== right[i]) return left[i]! < right[i]! ? -1 : 1;
  }
  return left.length - right.length;
}

/** Real path when the path exists (so a symlink cannot smuggle a search outside), else as given. */
async function canonical(path: string): Promise<string> {
  try {
    return await realpath(path);
  } catch {
    return path;
  }
}

async function isInsideWorkspace(dir: string, workspace: Workspace): Promise<boolean> {
  const real = await canonical(dir);
  const roots = await Promise.all([workspace.workDir, ...workspace.additionalDirs].map(canonical));
  return isInWorkspace(real, { workDir: roots[0]!, additionalDirs: roots.slice(1) });
}

/** The pattern's leading segments without glob characters: the folder it really lists. */
export function staticPrefix(pattern: string): string {
  const segments = pattern.split(/[\\/]/);
  const fixed: string[] = [];
  for (const segment of segments.slice(0, -1)) {
    if (/[*?[\]{}!()]/.test(segment)) break;
    fixed.push(segment);
  }
  return fixed.join('/');
}

function searchDirectory(directory: string | null, workspace: Workspace): string {
  return directory ? expandHome(directory) : workspace.workDir;
}

/**
 * Leaves out matches that are secret files (silently) and matches that a symlink leads outside the
 * workspace, unless the listing itself was asked for there (and so approved by the policy).
 */
async function keepVisible(
  matches: readonly string[],
  dir: string,
  listed: string,
  policy: SessionPolicy,
): Promise<{ kept: string[]; outside: number }> {
  const listedInside = (await policy.roots.classify(listed)) !== 'outside';
  const verdicts = await Promise.all(
    matches.map(async (match) => {
      const real = await realPathOf(join(dir, match));
      if (real !== listed && policy.sensitiveReason(real) !== null) return 'secret';
      if (listedInside && (await policy.roots.classify(real)) === 'outside') return 'outside';
      if (!listedInside && !isWithinDirectory(real, listed)) return 'outside';
      return 'kept';
    }),
  );
  return {
    kept: matches.filter((_, i) => verdicts[i] === 'kept'),
    outside: verdicts.filter((v) => v === 'outside').length,
  };
}

export function createGlobTool(workspace: Workspace, description: string, policy: SessionPolicy) {
  return defineTool({
    name: 'Glob',
    description,
    params: globParams,
    effect: 'reads-files',
    async effects({ pattern, directory }): Promise<Effect[]> {
      const dir = searchDirectory(directory, workspace);
      if (!isAbsolute(dir) || isAbsolute(pattern) || pattern.split(/[\\/]/).includes('..')) return [];
      const prefix = staticPrefix(pattern);
      const given = prefix ? (directory ? join(directory, prefix) : prefix) : (directory ?? '.');
      return [{ kind: 'read', target: await resolveFileTarget(given, workspace.workDir), access: 'list' }];
    },
    async call({ pattern, directory, include_dirs }, { signal }) {
      if (pattern.startsWith('**')) {
        return toolError(
          // Kimi CLI's words: programs and models trained on it key on them.
          `Pattern \`${pattern}\` starts with '**' which is not allowed. This would recursively search all directories and may include large directories like \`node_modules\`. Use more specific patterns instead. For your convenience, a list of all files and directories in the top level of the working directory is provided below.`,
          'Unsafe pattern',
          await listTopLevel(workspace.workDir),
        );
      }
      if (isAbsolute(pattern) || pattern.split(/[\\/]/).includes('..')) {
        return toolError(
          `Pattern \`${pattern}\` must be relative to the search directory and cannot contain \`..\`. Set \`directory\` to search somewhere else.`,
          'Unsafe pattern',
        );
      }
      const dir = searchDirectory(directory, workspace);
      if (!isAbsolute(dir)) {
        return toolError(
          `\`${directory}\` is not an absolute path. You must provide an absolute path to search.`,
          'Invalid directory',
        );
      }
      if (!(await isInsideWorkspace(dir, workspace))) {
        return toolError(
          `\`${dir}\` is outside the workspace. You can only search within the working directory and additional directories.`,
          'Directory outside workspace',
        );
      }
      try {
        let isDirectory: boolean;
        try {
          isDirectory = (await stat(dir)).isDirectory();
        } catch (error) {
          if (isMissingFileError(error))
            return toolError(`\`${dir}\` does not exist.`, 'Directory not found');
          throw error;
        }
        if (!isDirectory) return toolError(`\`${dir}\` is not a directory.`, 'Invalid directory');

        const { glob } = await import('tinyglobby');
        const found = await glob(pattern, {
          cwd: dir,
          dot: true,
          onlyFiles: !include_dirs,
          expandDirectories: false,
          followSymbolicLinks: false,
          signal,
        });
        const all = found
          .map((match) => (match.endsWith('/') && match.length > 1 ? match.slice(0, -1) : match))
          .map((match) => (sep === '\\' ? match.replaceAll('\\', '/') : match))
          .sort(comparePaths);
        const listed = await realPathOf(join(dir, staticPrefix(pattern)));
        const { kept: matches, outside } = await keepVisible(all, dir, listed, policy);
        let message =
          matches.length > 0
            ? `Found ${matches.length} matches for pattern \`${pattern}\`.`
            : `No matches found for pattern \`${pattern}\`.`;
        if (matches.length > MAX_MATCHES) {
          message += ` Only the first ${MAX_MATCHES} matches are returned. You may want to use a more specific pattern.`;
        }
        if (outside > 0) {
          message += ` ${outside} matches lead outside the workspace through symlinks and were left out; list that folder by its own path to see them.`;
        }
        return toolOk(matches.slice(0, MAX_MATCHES).join('\n'), message);
      } catch (error) {
        if (signal.aborted) throw error;
        return toolError(
          `Failed to search for pattern ${pattern}. Error: ${describeFsError(error)}`,
          'Glob failed',
        );
      }
    },
  });
}

export const Glob = toolFactory(
  ['workDir', 'additionalDirs', 'descriptionVars', 'policy'],
  async ({ workDir, additionalDirs, descriptionVars, policy }) =>
    createGlobTool(
      { workDir, additionalDirs },
      await loadToolDescription(new URL('./glob.md', import.meta.url), {
        ...descriptionVars,
        MAX_MATCHES: String(MAX_MATCHES),
      }),
      policy,
    ),
);
