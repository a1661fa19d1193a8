import './dependency.js';

export type { AgentTaskContext, AgentTaskWork } from './agent-task-work.js';
export {
  type AgentTaskRequest,
  BackgroundTaskError,
  BackgroundTaskManager,
  type BackgroundTaskManagerOptions,
  BackgroundTaskNotFound,
  type BashTaskRequest,
  DEFAULT_BACKGROUND_CONFIG,
  TooManyBackgroundTasks,
} from './background-task-manager.js';
export { TaskList } from './task-list.js';
export type { TaskKind, TaskRuntime, TaskSpec, TaskStatus, TaskView } from './task-model.js';
export type { TaskNotificationDraft, TaskNotificationSink } from './task-notification.js';
export { TaskOutput } from './task-output.js';
export { TaskStop } from './task-stop.js';
export { WaitFor } from './wait-for.js';
