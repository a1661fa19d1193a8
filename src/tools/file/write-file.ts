import { mkdir, readFile, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { z } from 'zod';
import { type ToolReturnValue, toolError } from '../../kosong/index.js';
import { declareParameters } from '../../toolset/declared-parameters.js';
import { toolFactory } from '../../toolset/loading/dependencies.js';
import { loadToolDescription } from '../../toolset/loading/tool-description.js';
import { defineTool } from '../../toolset/tool-definition.js';
import { buildDiffBlocks, type DiffBlock } from './diff-blocks.js';
import {
  EditApprovals,
  type FileEditContext,
  isCurrentPlanFile,
  type PlannedChange,
  type Prepared,
  planModeRefusal,
} from './file-edit.js';
import { fileEffects } from './file-effects.js';
import { describeFsError, isMissingFileError } from './fs-errors.js';
import { appendFileNoFollow, replaceFileNoFollow } from './no-follow-write.js';
import { emptyPathError, resolveToolPath } from './workspace-path.js';

/** Existing files bigger than this are not read just to show a diff. */
const MAX_DIFFED_FILE_BYTES = 16 * 1024 * 1024;

const writeFileParams = declareParameters('WriteFile', () =>
  z.object({
    path: z
      .string()
      .describe(
        'The file to write. Relative paths are resolved against the working directory; a file outside it needs an absolute path.',
      ),
    content: z.string().describe('The text to write to the file.'),
    mode: z
      .enum(['overwrite', 'append'])
      .default('overwrite')
      .describe('`overwrite` replaces the file (the default); `append` adds the content at the end.'),
  }),
);

type WriteFileParams = z.output<ReturnType<typeof writeFileParams.schema>>;

interface PlannedWrite extends PlannedChange {
  createParent: boolean;
}

async function existingFileSize(path: string): Promise<number | null | 'not-a-file'> {
  try {
    const info = await stat(path);
    return info.isFile() ? info.size : 'not-a-file';
  } catch (error) {
    if (isMissingFileError(error)) return null;
    throw error;
  }
}

async function parentExists(path: string): Promise<boolean> {
  try {
    return (await stat(dirname(path))).isDirectory();
  } catch (error) {
    if (isMissingFileError(error)) return false;
    throw error;
  }
}

function sizeSummary(path: string, oldBytes: number, newBytes: number): DiffBlock[] {
  return [
    {
      type: 'diff',
      path,
      old_text: `(${oldBytes} bytes before the change)`,
      new_text: `(${newBytes} bytes after the change)`,
      old_start: 1,
      new_start: 1,
      is_summary: true,
    },
  ];
}

async function planWrite(
  { path: input, content, mode }: WriteFileParams,
  { workspace, planMode }: FileEditContext,
): Promise<Prepared<PlannedWrite>> {
  if (!input) return { ok: false, error: emptyPathError() };
  const resolved = resolveToolPath(input, workspace, 'write');
  if (!resolved.ok) return resolved;
  const { path, outsideWorkspace } = resolved;
  const refusal = planModeRefusal(planMode, path);
  if (refusal) return { ok: false, error: refusal };
  const isPlanFile = isCurrentPlanFile(planMode, path);

  const size = await existingFileSize(path);
  if (size === 'not-a-file')
    return { ok: false, error: toolError(`\`${input}\` is not a file.`, 'Invalid path') };
  const createParent = isPlanFile && !(await parentExists(path));
  if (!createParent && !(await parentExists(path))) {
    return {
      ok: false,
      error: toolError(`\`${input}\` parent directory does not exist.`, 'Parent directory not found'),
    };
  }
  let display: DiffBlock[];
  if (size !== null && size > MAX_DIFFED_FILE_BYTES) {
    const added = Buffer.byteLength(content);
    display = sizeSummary(path, size, mode === 'append' ? size + added : added);
  } else {
    const oldText = size === null ? '' : await readFile(path, 'utf8');
    display = buildDiffBlocks(path, oldText, mode === 'append' ? oldText + content : content);
  }
  return { ok: true, change: { path, outsideWorkspace, isPlanFile, display, createParent } };
}

function writeFailure(input: string, error: unknown): ToolReturnValue {
  return toolError(`Failed to write to ${input}. Error: ${describeFsError(error)}`, 'Failed to write file');
}

export function createWriteFileTool(context: FileEditContext, description: string) {
  const approvals = new EditApprovals<WriteFileParams, PlannedWrite>(
    (params) =>
      planWrite(params, context).catch((error: unknown) => ({
        ok: false as const,
        error: writeFailure(params.path, error),
      })),
    'Write',
  );
  return defineTool({
    name: 'WriteFile',
    description,
    params: writeFileParams,
    effect: 'writes-files',
    effects: ({ path }) => fileEffects(path, context.workspace, 'write'),
    approval: (params) => approvals.approval(params),
    async call(params, { signal }): Promise<ToolReturnValue> {
      try {
        const prepared = await approvals.prepareCall(params);
        if (!prepared.ok) return prepared.error;
        const { change } = prepared;
        signal.throwIfAborted();
        if (change.createParent) await mkdir(dirname(change.path), { recursive: true });
        if (params.mode === 'append') await appendFileNoFollow(prepared.target, params.content);
        else await replaceFileNoFollow(prepared.target, params.content);
        const { size } = await stat(prepared.target.real);
        const done = params.mode === 'append' ? 'appended to' : 'overwritten';
        return {
          is_error: false,
          output: '',
          message: `File successfully ${done}. Current size: ${size} bytes.`,
          display: change.display,
        };
      } catch (error) {
        if (signal.aborted) throw error;
        return writeFailure(params.path, error);
      }
    },
  });
}

export const WriteFile = toolFactory(
  ['workDir', 'additionalDirs', 'planMode', 'descriptionVars'],
  async ({ workDir, additionalDirs, planMode, descriptionVars }) =>
    createWriteFileTool(
      { workspace: { workDir, additionalDirs }, planMode },
      await loadToolDescription(new URL('./write-file.md', import.meta.url), descriptionVars),
    ),
);
