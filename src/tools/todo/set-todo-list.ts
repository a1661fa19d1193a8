import { z } from 'zod';
import { toolOk } from '../../kosong/index.js';
import { declareParameters } from '../../toolset/declared-parameters.js';
import { toolFactory } from '../../toolset/loading/dependencies.js';
import { loadToolDescription } from '../../toolset/loading/tool-description.js';
import { defineTool } from '../../toolset/tool-definition.js';
import type { TodoItem } from '../runtime.js';

const params = declareParameters('SetTodoList', () => {
  const todoSchema = z.object({
    title: z.string().min(1).describe('What the item is about, short.'),
    status: z.enum(['pending', 'in_progress', 'done']).describe('Where the item stands.'),
  });
  return z.object({
    todos: z
      .array(todoSchema)
      .nullable()
      .default(null)
      .describe(
        'The whole new list (it replaces the old one; [] clears it). Leave out or null to read the list.',
      ),
  });
});

/**
 * Keeps the agent's todo list in the session state (root: state.json; subagents: their own state),
 * so it survives resuming. Only session state changes, hence `read-only` for approval purposes.
 */
export const SetTodoList = toolFactory(['session'], async ({ session }) =>
  defineTool({
    name: 'SetTodoList',
    description: await loadToolDescription(new URL('./set-todo-list.md', import.meta.url)),
    params,
    effect: 'read-only',
    call: async ({ todos }) => {
      if (todos === null) return readTodos(session.getTodos());
      const items: TodoItem[] = todos.map(({ title, status }) => ({ title, status }));
      await session.setTodos(items);
      return {
        is_error: false,
        output: 'Todo list updated',
        message: 'Todo list updated',
        display: [{ type: 'todo', items }],
      };
    },
  }),
);

function readTodos(todos: readonly TodoItem[]) {
  if (todos.length === 0) return toolOk('Todo list is empty.');
  const lines = todos.map((todo) => `- [${todo.status}] ${todo.title}`);
  return toolOk(`Current todo list:\n${lines.join('\n')}`);
}
