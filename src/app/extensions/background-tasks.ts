import { join } from 'node:path';
import { NotificationOutbox } from '../../session/notification-outbox.js';
import { BackgroundTaskManager } from '../../tools/background/background-task-manager.js';
import { defineExtension } from '../extension.js';
import { errorText } from '../session-warning.js';
import { taskCommand } from './task-command.js';

/**
 * The session's background task manager: tools get it as `backgroundTasks`, the notifications of
 * its ended tasks (in the session's outbox) reach the model (next step) and the Wire (every second),
 * and it stops the tasks when the session closes (unless `[background] keep_alive_on_exit`), listing
 * them in a warning.
 */
export function backgroundTasksExtension() {
  return defineExtension({
    name: 'background-tasks',
    uses: ['session', 'rootDeps', 'config', 'warn'],
    async setup({ session, rootDeps, config, warn }) {
      const outbox = await NotificationOutbox.open(join(session.dir, 'notifications'));
      const manager = await BackgroundTaskManager.open({
        sessionDir: session.dir,
        notifications: outbox,
        config: rootDeps.backgroundConfig,
        onError: (error) => warn({ kind: 'background-task-error', message: errorText(error) }),
      });
      return {
        deps: { backgroundTasks: manager },
        llmNotifications: outbox,
        wireNotifications: outbox,
        backgroundWork: {
          activeTaskIds: () => manager.unsettledIds(),
          pendingForModel: () => outbox.pendingForLLM(),
          waitForTask: async (id, timeoutMs, signal) => {
            await manager.wait(id, timeoutMs, signal);
          },
          stopAll: async (reason) => (await manager.stopAll(reason)).length,
          waitCeilingS: Math.min(
            config.background.agent_task_timeout_s,
            config.background.print_wait_ceiling_s,
          ),
        },
        slashCommands: [taskCommand(manager)],
        close: async () => {
          const stopped = await manager.shutdown();
          if (stopped.length > 0) {
            warn({
              kind: 'background-tasks-stopped',
              tasks: stopped.map((t) => ({ id: t.spec.id, description: t.spec.description })),
            });
          }
        },
      };
    },
  });
}
