import { z } from 'zod';
import { declareParameters } from '../../toolset/declared-parameters.js';
import { toolFactory } from '../../toolset/loading/dependencies.js';
import { loadToolDescription } from '../../toolset/loading/tool-description.js';
import { rootOnlyError } from './root-only.js';
import { formatTaskList, taskDisplayBlock } from './task-format.js';

const taskListParams = declareParameters('TaskList', () =>
  z.object({
    active_only: z.boolean().default(true).describe('List only tasks that have not finished yet.'),
    limit: z.number().int().min(1).max(100).default(20).describe('At most this many tasks, newest first.'),
  }),
);

/** TaskList: the session's background tasks, newest first. */
export const TaskList = toolFactory(['backgroundTasks', 'role', 'descriptionVars'], async (deps, kit) => {
  return kit.defineTool({
    name: 'TaskList',
    description: await loadToolDescription(new URL('./task-list.md', import.meta.url), deps.descriptionVars),
    params: taskListParams,
    effect: 'read-only',
    call: ({ active_only, limit }) => {
      const refusal = rootOnlyError(deps.role);
      if (refusal) return refusal;
      const views = deps.backgroundTasks.list({ activeOnly: active_only, limit });
      return {
        is_error: false,
        output: formatTaskList(views, active_only),
        message: 'Task list retrieved.',
        display: views.map(taskDisplayBlock),
      };
    },
  });
});
