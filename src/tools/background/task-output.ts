import { z } from 'zod';
import { toolError } from '../../kosong/index.js';
import { declareParameters } from '../../toolset/declared-parameters.js';
import { toolFactory } from '../../toolset/loading/dependencies.js';
import { loadToolDescription } from '../../toolset/loading/tool-description.js';
import type { OutputTail } from './output-tail.js';
import { rootOnlyError } from './root-only.js';
import { taskDisplayBlock, taskFieldLines } from './task-format.js';
import { isTerminal, type TaskView } from './task-model.js';

/** TaskOutput shows at most this much of the end of a task's output. */
export const TASK_OUTPUT_PREVIEW_BYTES = 32 * 1024;
/** The page size suggested for reading the whole log with ReadFile. */
const READ_HINT_LINES = 300;

type RetrievalStatus = 'success' | 'not_ready' | 'timeout';

const taskOutputParams = declareParameters('TaskOutput', () =>
  z.object({
    task_id: z.string().describe('The id of the background task.'),
    block: z.boolean().default(false).describe('Wait for the task to finish before answering.'),
    timeout: z
      .number()
      .int()
      .min(0)
      .max(3600)
      .default(30)
      .describe('With block=true, the longest wait in seconds.'),
  }),
);

/** TaskOutput: a background task's state and the end of its output, at once or after waiting for it. */
export const TaskOutput = toolFactory(['backgroundTasks', 'role', 'descriptionVars'], async (deps, kit) => {
  return kit.defineTool({
    name: 'TaskOutput',
    description: await loadToolDescription(
      new URL('./task-output.md', import.meta.url),
      deps.descriptionVars,
    ),
    params: taskOutputParams,
    effect: 'read-only',
    call: async ({ task_id, block, timeout }, ctx) => {
      const refusal = rootOnlyError(deps.role);
      if (refusal) return refusal;
      const tasks = deps.backgroundTasks;
      let view = tasks.get(task_id);
      if (!view) return toolError(`Task not found: ${task_id}`, 'Task not found');
      if (block) view = await tasks.wait(task_id, timeout * 1000, ctx.signal);
      const finished = isTerminal(view.runtime.status);
      const retrieval: RetrievalStatus = finished ? 'success' : block ? 'timeout' : 'not_ready';
      const tail = await tasks.readOutput(task_id, TASK_OUTPUT_PREVIEW_BYTES);
      return {
        is_error: false,
        output: formatTaskOutput(view, retrieval, tail),
        message: !block && !finished ? 'Task snapshot retrieved.' : 'Task output retrieved.',
        display: [taskDisplayBlock(view)],
      };
    },
  });
});

function formatTaskOutput(view: TaskView, retrieval: RetrievalStatus, tail: OutputTail): string {
  const { runtime } = view;
  const terminalReason = !isTerminal(runtime.status)
    ? 'none'
    : runtime.timed_out
      ? 'timed_out'
      : runtime.status;
  const fullOutputHint = tail.exists
    ? `Use ReadFile(path="${view.outputPath}", line_offset=1, n_lines=${READ_HINT_LINES}) to read the whole log; raise line_offset to page on.`
    : 'There is no output file for this task.';
  let output = tail.text.replace(/\n+$/, '') || '[no output available]';
  if (tail.truncated) output = `[Truncated. Full output: ${view.outputPath}]\n\n${output}`;
  return [
    `retrieval_status: ${retrieval}`,
    ...taskFieldLines(view).filter((line) => !/^(exit_code|reason): /.test(line)),
    `interrupted: ${runtime.interrupted}`,
    `timed_out: ${runtime.timed_out}`,
    `terminal_reason: ${terminalReason}`,
    ...(runtime.exit_code !== null ? [`exit_code: ${runtime.exit_code}`] : []),
    ...(runtime.failure_reason ? [`reason: ${runtime.failure_reason}`] : []),
    '',
    `output_path: ${view.outputPath}`,
    `output_size_bytes: ${tail.sizeBytes}`,
    `output_preview_bytes: ${tail.previewBytes}`,
    `output_truncated: ${tail.truncated}`,
    '',
    `full_output_available: ${tail.exists}`,
    'full_output_tool: ReadFile',
    `full_output_hint: ${fullOutputHint}`,
    '',
    '[output]',
    output,
  ].join('\n');
}
