import { appendFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { SandboxLaunch } from '../../policy/sandbox.js';
import type { BackgroundConfig } from '../runtime.js';
import { isProcessGroupAlive, killProcessGroup, processGroupHasEnv } from '../shell/process-group.js';
import { type AgentTaskWork, runAgentWork } from './agent-task-work.js';
import { spawnBashTask } from './bash-task-process.js';
import { ManagedTask } from './managed-task.js';
import { readOutputTail, tailLines } from './output-tail.js';
import { newTaskId } from './task-ids.js';
import {
  type TaskKind,
  type TaskRuntime,
  type TaskSpec,
  type TaskView,
  type TerminalStatus,
  unixNow,
} from './task-model.js';
import { type TaskNotificationSink, taskNotificationDraft } from './task-notification.js';
import { loadStoredTasks, TaskFolder } from './task-store.js';
import type { WaitParker } from './wait-parking.js';

export const DEFAULT_BACKGROUND_CONFIG: BackgroundConfig = {
  maxRunningTasks: 4,
  keepAliveOnExit: false,
  agentTaskTimeoutS: 900,
  killGracePeriodMs: 2_000,
  notificationTailLines: 20,
  notificationTailChars: 3_000,
};

/** How often a task left running by an earlier session is checked (Kimi CLI's heartbeat interval). */
const ADOPTED_TASK_POLL_MS = 5_000;
/** Enough of the output file to find the last lines for a notification. */
const NOTIFICATION_READ_BYTES = 64 * 1024;

export class BackgroundTaskError extends Error {
  override name = 'BackgroundTaskError';
}

export class TooManyBackgroundTasks extends BackgroundTaskError {
  override name = 'TooManyBackgroundTasks';
  constructor() {
    super('Too many background tasks are already running.');
  }
}

export class BackgroundTaskNotFound extends BackgroundTaskError {
  override name = 'BackgroundTaskNotFound';
  constructor(readonly taskId: string) {
    super(`Task not found: ${taskId}`);
  }
}

export interface BashTaskRequest {
  command: string;
  description: string;
  /** Seconds until the task is failed as timed out; null for no limit. */
  timeoutS: number | null;
  cwd: string;
  env: Record<string, string>;
  shellPath: string;
  sandboxLaunch?: SandboxLaunch | undefined;
  /**
   * Called once the command has exited, or could not start (the sandbox reads what it left before
   * the next command). What it resolves to, after an exit, is added to the end of the task's output
   * (so its notification and TaskOutput say it): the sandbox's note of what it cleaned.
   */
  onExited?: (() => Promise<string | null>) | undefined;
}

export interface AgentTaskRequest {
  description: string;
  /** Seconds until the task is failed as timed out; defaults to `agentTaskTimeoutS`. */
  timeoutS?: number | null | undefined;
  metadata?: Record<string, string> | undefined;
  run: AgentTaskWork;
}

export interface BackgroundTaskManagerOptions {
  sessionDir: string;
  /** Where each ended task's notification goes: the session's notification outbox. */
  notifications: TaskNotificationSink;
  config?: Partial<BackgroundConfig> | undefined;
  /** Failures of background bookkeeping (a file that could not be written); tasks go on regardless. */
  onError?: ((error: unknown) => void) | undefined;
}

/**
 * The background tasks of one session (root agent only): bash commands running as detached process
 * groups with their output in `<sessionDir>/tasks/<id>/output.log`, and in-process agent tasks. At
 * most `maxRunningTasks` run at once. Each task that ends publishes one notification to the session's
 * outbox, which delivers it once into the model's context and once onto the Wire.
 */
export class BackgroundTaskManager {
  readonly config: BackgroundConfig;
  private readonly tasks = new Map<string, ManagedTask>();
  private readonly tasksDir: string;
  private closed = false;
  /** Set in a fleet worker: a WaitFor that would block asks it first (see WaitParker). */
  waitParker: WaitParker | null = null;

  private constructor(private readonly options: BackgroundTaskManagerOptions) {
    this.config = { ...DEFAULT_BACKGROUND_CONFIG, ...options.config };
    this.tasksDir = join(options.sessionDir, 'tasks');
  }

  /** Opens the manager of a session, taking over the tasks an earlier run of it left behind. */
  static async open(options: BackgroundTaskManagerOptions): Promise<BackgroundTaskManager> {
    const manager = new BackgroundTaskManager(options);
    await manager.reconcile();
    return manager;
  }

  get(id: string): TaskView | undefined {
    return this.tasks.get(id)?.view;
  }

  /** Newest first. */
  list(options: { activeOnly?: boolean; limit?: number } = {}): TaskView[] {
    const all = [...this.tasks.values()].reverse();
    // A task still publishing its notification counts as active: a waiter (print mode) that saw it
    // neither running nor notified would stop waiting in that gap.
    const shown = options.activeOnly ? all.filter((task) => task.isActive || !task.settled) : all;
    return shown.slice(0, options.limit ?? shown.length).map((task) => task.view);
  }

  /**
   * Tasks whose outcome is not published yet: the active ones and those ending right now (terminal
   * already, their notification still being written). Waiting for all of these misses no result.
   */
  unsettledIds(): string[] {
    return [...this.tasks.values()].filter((task) => !task.settled).map((task) => task.spec.id);
  }

  activeCount(): number {
    let count = 0;
    for (const task of this.tasks.values()) if (task.isActive) count++;
    return count;
  }

  /** Starts a bash task; throws BackgroundTaskError when it cannot be started. */
  async startBash(request: BashTaskRequest): Promise<TaskView> {
    let task: ReturnType<typeof this.register>;
    try {
      task = this.register('bash', request.description, {
        command: request.command,
        shell_path: request.shellPath,
        cwd: request.cwd,
        timeout_s: request.timeoutS,
        metadata: {},
      });
    } catch (error) {
      // Refused before it started (too many tasks): whoever counted it as running hears it ended.
      void request.onExited?.();
      throw error;
    }
    let pid: number;
    try {
      await task.folder.ready;
      await task.transition('starting');
      const child = await spawnBashTask({
        ...request,
        env: { ...request.env, [TASK_ID_ENV]: task.spec.id },
        outputPath: task.folder.outputPath,
      });
      pid = child.pid;
      task.kill = () => killProcessGroup(pid, { graceMs: this.config.killGracePeriodMs });
      task.detach = () => child.unref();
      void child.exited.then(async (exitCode) => {
        // Whatever it says or throws, the task still ends.
        const note = await request.onExited?.().catch(() => null);
        if (note) await appendFile(task.folder.outputPath, `\n${note}\n`).catch(() => undefined);
        // A stop in progress: record the outcome only once the whole group is gone.
        await task.killFinished();
        await task.ended(exitCode === 0 ? 'completed' : 'failed', { exit_code: exitCode });
      });
    } catch (error) {
      void request.onExited?.();
      const reason = `Could not start the command: ${errorText(error)}`;
      await task.finish('failed', { failure_reason: reason }, { notify: false });
      throw new BackgroundTaskError(reason);
    }
    await task.transition('running', { pid, started_at: unixNow() });
    task.armTimeout(request.timeoutS, `Command timed out after ${request.timeoutS}s`);
    // A stop that arrived while the process was starting.
    if (task.stopIntent) void task.requestStop(task.stopIntent);
    return task.view;
  }

  /** Starts an in-process task (a background subagent); its function gets an AbortSignal. */
  async startAgent(request: AgentTaskRequest): Promise<TaskView> {
    const timeoutS = request.timeoutS === undefined ? this.config.agentTaskTimeoutS : request.timeoutS;
    const task = this.register('agent', request.description, {
      command: null,
      shell_path: null,
      cwd: null,
      timeout_s: timeoutS,
      metadata: { ...request.metadata },
    });
    try {
      await task.folder.ready;
      await task.transition('starting');
    } catch (error) {
      const reason = `Could not start the task: ${errorText(error)}`;
      await task.finish('failed', { failure_reason: reason }, { notify: false });
      throw new BackgroundTaskError(reason);
    }
    await task.transition('running', { started_at: unixNow() });
    const work = runAgentWork(request.run, task.spec.id, task.folder.outputPath, (waiting) =>
      task.setAwaitingApproval(waiting),
    );
    task.kill = async () => {
      await work.stop(task.stopIntent?.reason ?? 'Stopped', this.config.killGracePeriodMs);
      await task.ended('killed');
    };
    void work.ended.then((end) =>
      end.kind === 'threw'
        ? task.ended('failed', { failure_reason: errorText(end.error) })
        : task.ended('completed'),
    );
    task.armTimeout(timeoutS, `Agent task timed out after ${timeoutS}s`);
    if (task.stopIntent) void task.requestStop(task.stopIntent);
    return task.view;
  }

  /**
   * Waits until the task ends, at most `timeoutMs`; returns its view either way. Rejects when
   * `signal` aborts.
   */
  async wait(id: string, timeoutMs: number, signal?: AbortSignal): Promise<TaskView> {
    const task = this.require(id);
    // Settled, not just terminal: its notification is published by the time a waiter wakes.
    if (task.settled || timeoutMs <= 0) return task.view;
    signal?.throwIfAborted();
    let timer: NodeJS.Timeout | undefined;
    let onAbort: (() => void) | undefined;
    try {
      await Promise.race([
        task.done,
        new Promise<void>((resolve) => {
          timer = setTimeout(resolve, timeoutMs);
        }),
        new Promise<never>((_resolve, reject) => {
          onAbort = () => reject(signal?.reason);
          signal?.addEventListener('abort', onAbort, { once: true });
        }),
      ]);
    } finally {
      clearTimeout(timer);
      if (onAbort) signal?.removeEventListener('abort', onAbort);
    }
    return task.view;
  }

  /** The model got the ended task's result another way (WaitFor): its notification is not repeated to it. */
  async reportedToModel(id: string): Promise<void> {
    await this.options.notifications.acknowledgeForModel?.(id);
  }

  /** Stops a task (SIGTERM, grace, SIGKILL to its group) and waits until it has ended. */
  async stop(id: string, reason: string): Promise<TaskView> {
    const task = this.require(id);
    await task.requestStop({ status: 'killed', reason, timedOut: false });
    return task.view;
  }

  /** Stops every task still running; returns the views of those it stopped. */
  async stopAll(reason: string): Promise<TaskView[]> {
    return this.stopEach([...this.tasks.values()], reason);
  }

  /**
   * On exit: stops every task, or with `keepAliveOnExit` leaves bash tasks running on their own
   * (in-process agent tasks cannot outlive the program and are stopped). No task can start after.
   * Returns the tasks it stopped.
   */
  async shutdown(reason = 'Stopped because the session ended.'): Promise<TaskView[]> {
    this.closed = true;
    let toStop = [...this.tasks.values()];
    if (this.config.keepAliveOnExit) {
      const leftRunning = toStop.filter((task) => task.spec.kind === 'bash' && !task.finishing);
      for (const task of leftRunning) {
        task.clearTimers();
        task.detach?.();
      }
      toStop = toStop.filter((task) => !leftRunning.includes(task));
    }
    const stopped = await this.stopEach(toStop, reason);
    await Promise.all([...this.tasks.values()].map((task) => task.folder.flush()));
    await this.options.notifications.flush();
    return stopped;
  }

  /** The last `maxBytes` of a task's output. */
  readOutput(id: string, maxBytes: number): ReturnType<typeof readOutputTail> {
    return readOutputTail(this.require(id).folder.outputPath, maxBytes);
  }

  /** Stops the unsettled ones among `tasks` (waiting also for those already ending on their own). */
  private async stopEach(tasks: ManagedTask[], reason: string): Promise<TaskView[]> {
    const unsettled = tasks.filter((task) => !task.settled);
    await Promise.all(
      unsettled.map((task) => task.requestStop({ status: 'killed', reason, timedOut: false })),
    );
    return unsettled.map((task) => task.view).filter((view) => view.runtime.status === 'killed');
  }

  private register(
    kind: TaskKind,
    description: string,
    fields: Pick<TaskSpec, 'command' | 'shell_path' | 'cwd' | 'timeout_s' | 'metadata'>,
  ): ManagedTask {
    if (this.closed) throw new BackgroundTaskError('The session is closing; no background task can start.');
    if (this.activeCount() >= this.config.maxRunningTasks) throw new TooManyBackgroundTasks();
    let id = newTaskId(kind);
    while (this.tasks.has(id)) id = newTaskId(kind);
    const spec: TaskSpec = { version: 1, id, kind, description, created_at: unixNow(), ...fields };
    const runtime: TaskRuntime = {
      status: 'created',
      pid: null,
      started_at: null,
      updated_at: spec.created_at,
      finished_at: null,
      exit_code: null,
      interrupted: false,
      timed_out: false,
      failure_reason: null,
    };
    return this.manage(spec, runtime, (current) => TaskFolder.create(this.tasksDir, spec, current));
  }

  private manage(
    spec: TaskSpec,
    runtime: TaskRuntime,
    folderFor: (current: () => TaskRuntime) => TaskFolder,
  ): ManagedTask {
    const task = new ManagedTask(spec, runtime, folderFor, {
      notify: (view, status) => this.publishNotification(view, status),
      onError: (error) => this.options.onError?.(error),
    });
    this.tasks.set(spec.id, task);
    return task;
  }

  private async publishNotification(view: TaskView, status: TerminalStatus): Promise<void> {
    const tail = await readOutputTail(view.outputPath, NOTIFICATION_READ_BYTES);
    const text = tailLines(tail.text, this.config.notificationTailLines, this.config.notificationTailChars);
    await this.options.notifications.publish(taskNotificationDraft(view, status, tail.exists ? text : null));
  }

  private require(id: string): ManagedTask {
    const task = this.tasks.get(id);
    if (!task) throw new BackgroundTaskNotFound(id);
    return task;
  }

  /** Tasks of an earlier run: unfinished ones are adopted if their process still runs, else lost. */
  private async reconcile(): Promise<void> {
    for (const stored of await loadStoredTasks(this.tasksDir)) {
      const task = this.manage(stored.spec, stored.runtime, (current) =>
        TaskFolder.existing(this.tasksDir, stored.spec.id, current),
      );
      if (!task.isActive) continue;
      const pid = task.runtime.pid;
      if (task.spec.kind === 'bash' && pid !== null && processGroupHasEnv(pid, TASK_ID_ENV, task.spec.id)) {
        this.adopt(task, pid);
      } else {
        const reason =
          task.spec.kind === 'agent'
            ? 'The session that ran this task ended before the task finished.'
            : 'The process of this task is gone and its exit status is unknown.';
        await task.finish('lost', { failure_reason: reason });
      }
    }
  }

  /** Watches a bash task still running from an earlier run; its exit status cannot be known. */
  private adopt(task: ManagedTask, pid: number): void {
    const lost = 'The task ended while no session was watching it; its exit status is unknown.';
    task.kill = async () => {
      await killProcessGroup(pid, { graceMs: this.config.killGracePeriodMs });
      await task.ended('lost', { failure_reason: lost });
    };
    const poll = setInterval(() => {
      if (!isProcessGroupAlive(pid)) void task.ended('lost', { failure_reason: lost });
    }, ADOPTED_TASK_POLL_MS);
    poll.unref();
    task.addTimer(poll);
  }
}

/** Set in a bash task's environment, so a later session can tell its processes from unrelated ones. */
const TASK_ID_ENV = 'KIMI_TS_BACKGROUND_TASK_ID';

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
