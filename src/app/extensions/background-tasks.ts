import { join } from 'node:path';
import { NotificationOutbox } from '../../session/notification-outbox.js';
import { BackgroundTaskManager } from '../../tools/background/background-task-manager.js';
import type { Extension } from '../extension.js';
import { taskCommand } from './task-command.js';

/**
 * The session's background task manager: tools get it as `backgroundTasks`, the notifications of
 * its ended tasks (in the session's outbox) reach the model (next step) and the Wire (every second), and it stops the tasks when the session closes
 * (unless `[background] keep_alive_on_exit`), listing them on stderr.
 */
export function backgroundTasksExtension(options: { report?: (text: string) => void } = {}): Extension {
  return {
    name: 'background-tasks',
    async setup({ session, deps, host, config }) {
      const outbox = await NotificationOutbox.open(join(session.dir, 'notifications'));
      const manager = await BackgroundTaskManager.open({
        sessionDir: session.dir,
        notifications: outbox,
        config: deps.backgroundConfig,
        onError: (error) =>
          options.report?.(`background tasks: ${error instanceof Error ? error.message : String(error)}\n`),
      });
      deps.backgroundTasks = manager;
      host.addLLMNotifications(outbox);
      host.setBackgroundWork({
        activeTaskIds: () => manager.list({ activeOnly: true, limit: 100 }).map((t) => t.spec.id),
        pendingForModel: () => outbox.pendingForLLM(),
        waitForTask: async (id, timeoutMs, signal) => {
          await manager.wait(id, timeoutMs, signal);
        },
        stopAll: async (reason) => (await manager.stopAll(reason)).length,
        waitCeilingS: Math.min(
          config.background.agent_task_timeout_s,
          config.background.print_wait_ceiling_s,
        ),
      });
      host.addWireNotifications(outbox);
      host.addSlashCommand(taskCommand(manager));
      host.addCloser(async () => {
        const stopped = await manager.shutdown();
        if (stopped.length > 0) {
          const lines = stopped.map((t) => `  ${t.spec.id}: ${t.spec.description}`).join('\n');
          options.report?.(`Stopped ${stopped.length} background task(s) at exit:\n${lines}\n`);
        }
      });
    },
  };
}
