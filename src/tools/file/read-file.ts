import { stat } from 'node:fs/promises';
import { z } from 'zod';
import { type ToolReturnValue, toolError, toolOk } from '../../kosong/index.js';
import { declareParameters } from '../../toolset/declared-parameters.js';
import { toolFactory } from '../../toolset/loading/dependencies.js';
import { loadToolDescription } from '../../toolset/loading/tool-description.js';
import { defineTool } from '../../toolset/tool-definition.js';
import { fileEffects } from './file-effects.js';
import { detectFileType, readFileHeader } from './file-type.js';
import { describeFsError, isMissingFileError } from './fs-errors.js';
import {
  MAX_BYTES,
  MAX_LINE_LENGTH,
  MAX_LINES,
  type ReadWindow,
  readForward,
  readTail,
} from './read-window.js';
import { emptyPathError, resolveToolPath, type Workspace } from './workspace-path.js';

export { MAX_BYTES, MAX_LINE_LENGTH, MAX_LINES };

const readFileParams = declareParameters('ReadFile', () =>
  z.object({
    path: z
      .string()
      .describe(
        'The file to read. Relative paths are resolved against the working directory; a file outside it needs an absolute path.',
      ),
    line_offset: z
      .number()
      .int()
      .min(-MAX_LINES)
      .refine((offset) => offset !== 0, {
        message:
          'line_offset cannot be 0: use 1 for the first line, or a negative number to read from the end',
      })
      .default(1)
      .describe(
        `The line number to start reading from (1 = first line). A negative number reads the last lines of the file, e.g. -100 for the last 100 lines (at most -${MAX_LINES}).`,
      ),
    n_lines: z
      .number()
      .int()
      .min(1)
      .default(MAX_LINES)
      .describe(`The number of lines to read (at most ${MAX_LINES} per call).`),
  }),
);

export type ReadFileParams = z.output<ReturnType<typeof readFileParams.schema>>;

/** The message that goes with the lines read; tests and models rely on its wording. */
export function describeReadWindow(window: ReadWindow, requested: number): string {
  const { lines, totalLines, limitReached } = window;
  const first = lines[0];
  let message = first
    ? `${lines.length} lines read from file starting from line ${first.lineNo}.`
    : 'No lines read from file.';
  message += ` Total lines in file: ${totalLines}.`;
  if (limitReached === 'max_lines') message += ` Max ${MAX_LINES} lines reached.`;
  else if (limitReached === 'max_bytes') message += ` Max ${MAX_BYTES} bytes reached.`;
  else if (lines.length < requested) message += ' End of file reached.';
  const truncated = lines.filter((line) => line.truncated).map((line) => line.lineNo);
  if (truncated.length > 0) message += ` Lines [${truncated.join(', ')}] were truncated.`;
  return message;
}

export function formatNumberedLines(window: ReadWindow): string {
  return window.lines.map((line) => `${String(line.lineNo).padStart(6)}\t${line.text}`).join('');
}

/** The checks every text read goes through before any byte of content is shown to the model. */
async function checkReadable(input: string, path: string): Promise<ToolReturnValue | null> {
  let info: Awaited<ReturnType<typeof stat>>;
  try {
    info = await stat(path);
  } catch (error) {
    if (isMissingFileError(error)) return toolError(`\`${input}\` does not exist.`, 'File not found');
    throw error;
  }
  if (!info.isFile()) return toolError(`\`${input}\` is not a file.`, 'Invalid path');
  const type = detectFileType(path, await readFileHeader(path));
  if (type.kind === 'image' || type.kind === 'video') {
    return toolError(
      `\`${input}\` is ${type.kind === 'image' ? 'an image' : 'a video'} file. Use other appropriate tools to read image or video files.`,
      'Unsupported file type',
    );
  }
  if (type.kind === 'unknown') {
    return toolError(
      `\`${input}\` seems not readable as text. You may need to read it with proper shell commands or Python tools/scripts. If you use Python with third-party packages, install them in a virtual environment (venv).`,
      'File not readable',
    );
  }
  return null;
}

export function createReadFileTool(workspace: Workspace, description: string) {
  return defineTool({
    name: 'ReadFile',
    description,
    params: readFileParams,
    effect: 'reads-files',
    effects: ({ path }) => fileEffects(path, workspace, 'read'),
    async call({ path: input, line_offset, n_lines }, { signal }) {
      if (!input) return emptyPathError();
      const resolved = resolveToolPath(input, workspace, 'read');
      if (!resolved.ok) return resolved.error;
      try {
        const refusal = await checkReadable(input, resolved.path);
        if (refusal) return refusal;
        const window =
          line_offset > 0
            ? await readForward(resolved.path, line_offset, n_lines, signal)
            : await readTail(resolved.path, -line_offset, n_lines, signal);
        return toolOk(formatNumberedLines(window), describeReadWindow(window, n_lines));
      } catch (error) {
        if (signal.aborted) throw error;
        return toolError(`Failed to read ${input}. Error: ${describeFsError(error)}`, 'Failed to read file');
      }
    },
  });
}

export const ReadFile = toolFactory(
  ['workDir', 'additionalDirs', 'descriptionVars'],
  async ({ workDir, additionalDirs, descriptionVars }) =>
    createReadFileTool(
      { workDir, additionalDirs },
      await loadToolDescription(new URL('./read-file.md', import.meta.url), {
        ...descriptionVars,
        MAX_LINES: String(MAX_LINES),
        MAX_LINE_LENGTH: String(MAX_LINE_LENGTH),
        MAX_BYTES: String(MAX_BYTES),
      }),
    ),
);
