import type { BackgroundTaskManager } from './background-task-manager.js';

declare module '../../toolset/loading/dependencies.js' {
  interface ToolDependencyMap {
    /** The session's background tasks (one manager per session, shared with its subagents). */
    backgroundTasks: BackgroundTaskManager;
  }
}
