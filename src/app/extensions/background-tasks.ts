import { join } from 'node:path';
import { NotificationOutbox } from '../../session/notification-outbox.js';
import { BackgroundTaskManager } from '../../tools/background/background-task-manager.js';
import { defineExtension } from '../extension.js';
import { errorText } from '../session-warning.js';
import type { BackgroundTaskKeeper } from './background-task-keeper.js';
import { taskCommand } from './task-command.js';

/**
 * The session's background task manager: tools get it as `backgroundTasks`, the notifications of
 * its ended tasks (in the session's outbox) reach the model (next step) and the Wire (every second),
 * and it stops the tasks when the session closes (unless `[background] keep_alive_on_exit`), listing
 * them in a warning. In a fleet worker (`keeper`), a WaitFor that would block parks the turn, and
 * the session's close keeps the tasks running for the turn's return instead of stopping them.
 */
export function backgroundTasksExtension(keeper?: BackgroundTaskKeeper) {
  return defineExtension({
    name: 'background-tasks',
    uses: ['session', 'rootDeps', 'config', 'warn'],
    async setup({ session, rootDeps, config, warn }) {
      const kept = keeper?.take(session.id);
      const outbox = kept?.outbox ?? (await NotificationOutbox.open(join(session.dir, 'notifications')));
      const manager =
        kept?.manager ??
        (await BackgroundTaskManager.open({
          sessionDir: session.dir,
          notifications: outbox,
          config: rootDeps.backgroundConfig,
          onError: (error) => warn({ kind: 'background-task-error', message: errorText(error) }),
        }));
      if (keeper) manager.waitParker = (wait) => keeper.offer(session.id, manager, wait);
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
          manager.waitParker = null;
          // A turn parked for a wait comes back to this process: its tasks run on meanwhile.
          if (keeper?.keep(session.id, { manager, outbox })) return;
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
