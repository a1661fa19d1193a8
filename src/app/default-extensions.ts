import type { Extension } from './extension.js';
import type { BackgroundTaskKeeper } from './extensions/background-task-keeper.js';
import { backgroundTasksExtension } from './extensions/background-tasks.js';
import { externalToolsExtension } from './extensions/external-tools.js';
import { mcpExtension } from './extensions/mcp.js';
import { planModeExtension } from './extensions/plan-mode.js';
import { pluginsExtension } from './plugins/plugins-extension.js';
import { subagentsExtension } from './subagents/index.js';

export interface DefaultExtensionOptions {
  home: string;
  plan?: boolean | undefined;
  addDirs: readonly string[];
  /** A fleet worker's session for one item of a swarm: it leaves the session's other worktrees alone. */
  swarmItem?: boolean | undefined;
  /** A fleet worker's: background tasks of turns parked for a WaitFor run on, kept here. */
  backgroundTaskKeeper?: BackgroundTaskKeeper | undefined;
}

/** The services every CLI session gets, each set up before the tools load. */
export function defaultExtensions(options: DefaultExtensionOptions): Extension[] {
  return [
    planModeExtension({ startInPlanMode: options.plan }),
    backgroundTasksExtension(options.backgroundTaskKeeper),
    externalToolsExtension(),
    mcpExtension(),
    subagentsExtension({ recoverWorktrees: options.swarmItem !== true }),
    pluginsExtension(),
  ];
}
