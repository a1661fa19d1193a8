import { realpath, stat } from 'node:fs/promises';
import { isAbsolute, sep } from 'node:path';
import { z } from 'zod';
import { toolError, toolOk } from '../../kosong/index.js';
import { toolFactory } from '../../toolset/dependencies.js';
import { defineTool } from '../../toolset/tool-definition.js';
import { loadToolDescription } from '../../toolset/tool-description.js';
import { listTopLevel } from './directory-listing.js';
import { describeFsError, isMissingFileError } from './fs-errors.js';
import { expandHome, isInWorkspace, type Workspace } from './workspace-path.js';

export const MAX_MATCHES = 1_000;

const globParams = z.object({
  pattern: z.string().describe('The glob pattern to match files and directories against.'),
  directory: z
    .string()
    .nullable()
    .default(null)
    .describe('The absolute path of the directory to search in. Defaults to the working directory.'),
  include_dirs: z.boolean().default(true).describe('Whether to include directories in the results.'),
});

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

export function createGlobTool(workspace: Workspace, description: string) {
  return defineTool({
    name: 'Glob',
    description,
    params: globParams,
    effect: 'read-only',
    async call({ pattern, directory, include_dirs }, { signal }) {
      if (pattern.startsWith('**')) {
        return toolError(
          `Pattern \`${pattern}\` starts with '**' which is not allowed. It would search every directory below the top, including large ones such as \`node_modules\`. Use a more specific pattern instead. For your convenience, the top level of the working directory is listed below.`,
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
      const dir = directory ? expandHome(directory) : workspace.workDir;
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
        const matches = found
          .map((match) => (match.endsWith('/') && match.length > 1 ? match.slice(0, -1) : match))
          .map((match) => (sep === '\\' ? match.replaceAll('\\', '/') : match))
          .sort(comparePaths);
        let message =
          matches.length > 0
            ? `Found ${matches.length} matches for pattern \`${pattern}\`.`
            : `No matches found for pattern \`${pattern}\`.`;
        if (matches.length > MAX_MATCHES) {
          message += ` Only the first ${MAX_MATCHES} matches are returned. You may want to use a more specific pattern.`;
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
  ['workDir', 'additionalDirs', 'descriptionVars'],
  async ({ workDir, additionalDirs, descriptionVars }) =>
    createGlobTool(
      { workDir, additionalDirs },
      await loadToolDescription(new URL('./glob.md', import.meta.url), {
        ...descriptionVars,
        MAX_MATCHES: String(MAX_MATCHES),
      }),
    ),
);
