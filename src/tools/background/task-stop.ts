import { z } from 'zod';
import { toolError } from '../../kosong/index.js';
import { declareParameters } from '../../toolset/declared-parameters.js';
import { toolFactory } from '../../toolset/loading/dependencies.js';
import { loadToolDescription } from '../../toolset/loading/tool-description.js';
import { rootOnlyError } from './root-only.js';
import { taskDisplayBlock, taskFieldLines } from './task-format.js';
import { isTerminal } from './task-model.js';

const DEFAULT_REASON = 'Stopped by TaskStop';

const taskStopParams = declareParameters('TaskStop', () =>
  z.object({
    task_id: z.string().describe('The id of the background task to stop.'),
    reason: z.string().default(DEFAULT_REASON).describe('A short reason, recorded with the task.'),
  }),
);

/** TaskStop: ends a running background task after the user approves. */
export const TaskStop = toolFactory(
  ['backgroundTasks', 'role', 'planMode', 'descriptionVars'],
  async (deps, kit) => {
    const tasks = deps.backgroundTasks;
    /** Why the call is refused without touching anything, or null when it may go ahead. */
    const refusal = (taskId: string) => {
      const notRoot = rootOnlyError(deps.role);
      if (notRoot) return notRoot;
      if (deps.planMode.isActive())
        return toolError('TaskStop is not available in plan mode.', 'Blocked in plan mode');
      if (!tasks.get(taskId)) return toolError(`Task not found: ${taskId}`, 'Task not found');
      return null;
    };
    return kit.defineTool({
      name: 'TaskStop',
      description: await loadToolDescription(
        new URL('./task-stop.md', import.meta.url),
        deps.descriptionVars,
      ),
      params: taskStopParams,
      effect: 'runs-commands',
      approval: ({ task_id }) => {
        const view = tasks.get(task_id);
        if (refusal(task_id) || !view) return { autoApprove: 'the call is refused without side effects' };
        if (isTerminal(view.runtime.status)) return { autoApprove: 'the task has already finished' };
        return {
          action: 'stop background task',
          description: `Stop background task \`${task_id}\``,
          display: [taskDisplayBlock(view)],
        };
      },
      call: async ({ task_id, reason }) => {
        const refused = refusal(task_id);
        if (refused) return refused;
        const before = tasks.get(task_id);
        if (before && isTerminal(before.runtime.status)) {
          return {
            is_error: false,
            output: taskFieldLines(before).join('\n'),
            message: `The task had already finished (${before.runtime.status}); nothing was stopped.`,
            display: [taskDisplayBlock(before)],
          };
        }
        const view = await tasks.stop(task_id, reason.trim() || DEFAULT_REASON);
        return {
          is_error: false,
          output: taskFieldLines(view).join('\n'),
          message: 'Task stop requested.',
          display: [taskDisplayBlock(view)],
        };
      },
    });
  },
);
