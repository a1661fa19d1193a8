import { type SlashCommand, say } from '../../soul/slash-commands.js';
import type { BackgroundTaskManager } from '../../tools/background/background-task-manager.js';
import { formatTaskList, taskFieldLines } from '../../tools/background/task-format.js';

/** Output shown by `/task <id>` (the end of it). */
const OUTPUT_TAIL_BYTES = 4000;

/**
 * `/task`: the session's background tasks for the user (the model has TaskList/TaskOutput/TaskStop).
 * `/task` lists them, `/task <id>` shows one with the end of its output, `/task stop <id>` stops it.
 */
export function taskCommand(manager: BackgroundTaskManager): SlashCommand {
  return {
    name: 'task',
    description: 'Background tasks: /task lists them, /task ID shows one, /task stop ID stops it',
    aliases: ['tasks'],
    async run({ soul, args }) {
      const [first = '', second = ''] = args.trim().split(/\s+/);
      const stopping = first === 'stop';
      const id = stopping ? second : first;
      if (!id) {
        if (stopping) return say(soul, 'Usage: /task stop ID');
        return say(soul, formatTaskList(manager.list({ limit: 100 }), false));
      }
      if (!manager.get(id)) return say(soul, `There is no background task ${id}. /task lists them.`);
      if (stopping) {
        const view = await manager.stop(id, 'Stopped by the user (/task stop).');
        return say(soul, taskFieldLines(view).join('\n'));
      }
      const view = manager.get(id)!;
      const tail = await manager.readOutput(id, OUTPUT_TAIL_BYTES);
      const output =
        tail.exists && tail.text ? `\n\noutput${tail.truncated ? ' (the end)' : ''}:\n${tail.text}` : '';
      say(soul, `${taskFieldLines(view).join('\n')}${output}`);
    },
  };
}
