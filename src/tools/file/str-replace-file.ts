import { readFile, stat } from 'node:fs/promises';
import { z } from 'zod';
import { type ToolReturnValue, toolError } from '../../kosong/index.js';
import { declareParameters } from '../../toolset/declared-parameters.js';
import { toolFactory } from '../../toolset/loading/dependencies.js';
import { loadToolDescription } from '../../toolset/loading/tool-description.js';
import { defineTool } from '../../toolset/tool-definition.js';
import { buildDiffBlocks } from './diff-blocks.js';
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
import { replaceFileNoFollow } from './no-follow-write.js';
import { applyEdits } from './text-edits.js';
import { emptyPathError, resolveToolPath } from './workspace-path.js';

const strReplaceParams = declareParameters('StrReplaceFile', () => {
  const editSchema = z.object({
    old: z.string().describe('The exact text to replace.'),
    new: z.string().describe('The text to put in its place.'),
    replace_all: z
      .boolean()
      .default(false)
      .describe('Replace every occurrence of `old` instead of only the first.'),
  });
  return z.object({
    path: z
      .string()
      .describe(
        'The file to edit. Relative paths are resolved against the working directory; a file outside it needs an absolute path.',
      ),
    edit: z
      .union([editSchema, z.array(editSchema)])
      .describe('One edit, or a list of edits applied in order.'),
  });
});

type StrReplaceParams = z.output<ReturnType<typeof strReplaceParams.schema>>;

interface PlannedEdit extends PlannedChange {
  newText: string;
  editCount: number;
  replacements: number;
}

const refuse = (message: string, brief: string): Prepared<PlannedEdit> => ({
  ok: false,
  error: toolError(message, brief),
});

async function planEdit(
  { path: input, edit }: StrReplaceParams,
  { workspace, planMode }: FileEditContext,
): Promise<Prepared<PlannedEdit>> {
  if (!input) return { ok: false, error: emptyPathError() };
  const resolved = resolveToolPath(input, workspace, 'edit');
  if (!resolved.ok) return resolved;
  const { path, outsideWorkspace } = resolved;
  const refusal = planModeRefusal(planMode, path);
  if (refusal) return { ok: false, error: refusal };
  const isPlanFile = isCurrentPlanFile(planMode, path);

  let isFile: boolean;
  try {
    isFile = (await stat(path)).isFile();
  } catch (error) {
    if (!isMissingFileError(error)) throw error;
    return isPlanFile
      ? refuse(
          'The current plan file does not exist yet. Use WriteFile to create it before calling StrReplaceFile.',
          'Plan file not found',
        )
      : refuse(`\`${input}\` does not exist.`, 'File not found');
  }
  if (!isFile) return refuse(`\`${input}\` is not a file.`, 'Invalid path');

  const edits = Array.isArray(edit) ? edit : [edit];
  if (edits.length === 0) return refuse('No edits were given: `edit` needs at least one edit.', 'No edits');
  if (edits.some((item) => item.old === '')) {
    return refuse('An edit has an empty `old` text: give the exact text to replace.', 'Invalid edit');
  }
  const original = await readFile(path, 'utf8');
  const { text: newText, replacements } = applyEdits(original, edits);
  if (newText === original) {
    return refuse(
      'No replacements were made. The old string was not found in the file.',
      'No replacements made',
    );
  }
  return {
    ok: true,
    change: {
      path,
      outsideWorkspace,
      isPlanFile,
      display: buildDiffBlocks(path, original, newText),
      newText,
      editCount: edits.length,
      replacements,
    },
  };
}

function editFailure(input: string, error: unknown): ToolReturnValue {
  return toolError(`Failed to edit ${input}. Error: ${describeFsError(error)}`, 'Failed to edit file');
}

export function createStrReplaceFileTool(context: FileEditContext, description: string) {
  const approvals = new EditApprovals<StrReplaceParams, PlannedEdit>(
    (params) =>
      planEdit(params, context).catch((error: unknown) => ({
        ok: false as const,
        error: editFailure(params.path, error),
      })),
    'Edit',
  );
  return defineTool({
    name: 'StrReplaceFile',
    description,
    params: strReplaceParams,
    effect: 'writes-files',
    effects: ({ path }) => fileEffects(path, context.workspace, 'edit'),
    approval: (params) => approvals.approval(params),
    async call(params, { signal }): Promise<ToolReturnValue> {
      try {
        // Worked out again on the file as it is now: another call may have changed it since approval.
        const prepared = await approvals.prepareCall(params);
        if (!prepared.ok) return prepared.error;
        const { change } = prepared;
        signal.throwIfAborted();
        await replaceFileNoFollow(prepared.target, change.newText);
        return {
          is_error: false,
          output: '',
          message: `File successfully edited. Applied ${change.editCount} edit(s) with ${change.replacements} total replacement(s).`,
          display: change.display,
        };
      } catch (error) {
        if (signal.aborted) throw error;
        return editFailure(params.path, error);
      }
    },
  });
}

export const StrReplaceFile = toolFactory(
  ['workDir', 'additionalDirs', 'planMode', 'descriptionVars'],
  async ({ workDir, additionalDirs, planMode, descriptionVars }) =>
    createStrReplaceFileTool(
      { workspace: { workDir, additionalDirs }, planMode },
      await loadToolDescription(new URL('./str-replace-file.md', import.meta.url), descriptionVars),
    ),
);
