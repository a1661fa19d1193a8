import type { TaskView } from './task-model.js';

/** The `key: value` lines describing a task, as Kimi CLI's task tools print them. */
export function taskFieldLines(view: TaskView, { includeCommand = true } = {}): string[] {
  const { spec, runtime } = view;
  const lines = [
    `task_id: ${spec.id}`,
    `kind: ${spec.kind}`,
    `status: ${runtime.status}`,
    `description: ${spec.description}`,
  ];
  if (includeCommand && spec.command !== null) lines.push(`command: ${spec.command}`);
  for (const [key, value] of Object.entries(spec.metadata)) lines.push(`${key}: ${value}`);
  if (runtime.exit_code !== null) lines.push(`exit_code: ${runtime.exit_code}`);
  if (runtime.failure_reason) lines.push(`reason: ${runtime.failure_reason}`);
  return lines;
}

/** The UI block for a task. */
export function taskDisplayBlock(view: TaskView): {
  type: 'background_task';
  task_id: string;
  kind: string;
  status: string;
  description: string;
} {
  return {
    type: 'background_task',
    task_id: view.spec.id,
    kind: view.spec.kind,
    status: view.runtime.status,
    description: view.spec.description,
  };
}

/** TaskList's text: a count header, then one numbered block per task. */
export function formatTaskList(views: readonly TaskView[], activeOnly: boolean): string {
  const header = `${activeOnly ? 'active_background_tasks' : 'background_tasks'}: ${views.length}`;
  if (views.length === 0) return `${header}\n[no tasks]`;
  const blocks = views.map((view, index) => [`[${index + 1}]`, ...taskFieldLines(view)].join('\n'));
  return [header, ...blocks].join('\n\n');
}
