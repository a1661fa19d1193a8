import { join } from 'node:path';
import type { BackgroundConfig, PendingNotification } from '../runtime.js';
import { isProcessGroupAlive, killProcessGroup, processGroupHasEnv } from '../shell/process-group.js';
import { type AgentTaskWork, runAgentWork } from './agent-task-work.js';
import { spawnBashTask } from './bash-task-process.js';
import { ManagedTask } from './managed-task.js';
import { NotificationOutbox, toWireNotification, type WireNotification } from './notification-outbox.js';
import { readOutputTail, tailLines } from './output-tail.js';
import { newTaskId } from './task-ids.js';
import {
  isTerminal,
  type TaskKind,
  type TaskRuntime,
  type TaskSpec,
  type TaskView,
  type TerminalStatus,
  unixNow,
} from './task-model.js';
import { renderNotificationForLLM, taskNotificationDraft } from './task-notification.js';
import { loadStoredTasks, TaskFolder } from './task-store.js';

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
  config?: Partial<BackgroundConfig> | undefined;
  /** Failures of background bookkeeping (a file that could not be written); tasks go on regardless. */
  onError?: ((error: unknown) => void) | undefined;
}

/**
 * The background tasks of one session (root agent only): bash commands running as detached process
 * groups with their output in `<sessionDir>/tasks/<id>/output.log`, and in-process agent tasks. At
 * most `maxRunningTasks` run at once. Each task that ends produces one notification, delivered once
 * into the model's context (`claimForLLM`) and once onto the Wire (`drainWire`).
 */
export class BackgroundTaskManager {
  readonly config: BackgroundConfig;
  private readonly tasks = new Map<string, ManagedTask>();
  private readonly tasksDir: string;
  private closed = false;

  private constructor(
    private readonly options: BackgroundTaskManagerOptions,
    private readonly outbox: NotificationOutbox,
  ) {
    this.config = { ...DEFAULT_BACKGROUND_CONFIG, ...options.config };
    this.tasksDir = join(options.sessionDir, 'tasks');
  }

  /** Opens the manager of a session, taking over the tasks an earlier run of it left behind. */
  static async open(options: BackgroundTaskManagerOptions): Promise<BackgroundTaskManager> {
    const outbox = await NotificationOutbox.open(join(options.sessionDir, 'notifications'));
    const manager = new BackgroundTaskManager(options, outbox);
    await manager.reconcile();
    return manager;
  }

  get(id: string): TaskView | undefined {
    const task = this.tasks.get(id);
    return task && viewOf(task);
  }

  /** Newest first. */
  list(options: { activeOnly?: boolean; limit?: number } = {}): TaskView[] {
    const all = [...this.tasks.values()].reverse().map(viewOf);
    const shown = options.activeOnly ? all.filter((view) => !isTerminal(view.runtime.status)) : all;
    return shown.slice(0, options.limit ?? shown.length);
  }

  activeCount(): number {
    let count = 0;
    for (const task of this.tasks.values()) if (!isTerminal(task.runtime.status)) count++;
    return count;
  }

  /** Starts a bash task; throws BackgroundTaskError when it cannot be started. */
  async startBash(request: BashTaskRequest): Promise<TaskView> {
    const task = this.register('bash', request.description, {
      command: request.command,
      shell_path: request.shellPath,
      cwd: request.cwd,
      timeout_s: request.timeoutS,
      metadata: {},
    });
    let pid: number;
    try {
      await task.folder.ready;
      await this.transition(task, 'starting');
      const child = await spawnBashTask({ ...request, outputPath: task.folder.outputPath });
      pid = child.pid;
      task.kill = () => killProcessGroup(pid, { graceMs: this.config.killGracePeriodMs });
      task.detach = () => child.unref();
      void child.exited.then((exitCode) => this.onBashExit(task, exitCode));
    } catch (error) {
      const reason = `Could not start the command: ${errorText(error)}`;
      await this.finish(task, 'failed', { failure_reason: reason }, { notify: false });
      throw new BackgroundTaskError(reason);
    }
    await this.transition(task, 'running', { pid, started_at: unixNow() });
    this.armTimeout(task, request.timeoutS, `Command timed out after ${request.timeoutS}s`);
    // A stop that arrived while the process was starting.
    if (task.stopIntent) void this.requestStop(task, task.stopIntent);
    return viewOf(task);
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
      await this.transition(task, 'starting');
    } catch (error) {
      const reason = `Could not start the task: ${errorText(error)}`;
      await this.finish(task, 'failed', { failure_reason: reason }, { notify: false });
      throw new BackgroundTaskError(reason);
    }
    await this.transition(task, 'running', { started_at: unixNow() });
    const work = runAgentWork(request.run, task.spec.id, task.folder.outputPath, (waiting) =>
      this.setAwaitingApproval(task, waiting),
    );
    task.kill = async () => {
      await work.stop(task.stopIntent?.reason ?? 'Stopped', this.config.killGracePeriodMs);
      await this.onAgentEnd(task, null);
    };
    void work.ended.then((end) => this.onAgentEnd(task, end.kind === 'threw' ? end.error : null));
    this.armTimeout(task, timeoutS, `Agent task timed out after ${timeoutS}s`);
    if (task.stopIntent) void this.requestStop(task, task.stopIntent);
    return viewOf(task);
  }

  /**
   * Waits until the task ends, at most `timeoutMs`; returns its view either way. Rejects when
   * `signal` aborts.
   */
  async wait(id: string, timeoutMs: number, signal?: AbortSignal): Promise<TaskView> {
    const task = this.require(id);
    // Settled, not just terminal: its notification is published by the time a waiter wakes.
    if (task.settled || timeoutMs <= 0) return viewOf(task);
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
    return viewOf(task);
  }

  /** Stops a task (SIGTERM, grace, SIGKILL to its group) and waits until it has ended. */
  async stop(id: string, reason: string): Promise<TaskView> {
    const task = this.require(id);
    await this.requestStop(task, { status: 'killed', reason, timedOut: false });
    return viewOf(task);
  }

  /** Stops every task still running; returns the views of those it stopped. */
  async stopAll(reason: string): Promise<TaskView[]> {
    // Tasks already finishing on their own are waited for too, so nothing is still writing afterwards.
    const unsettled = [...this.tasks.values()].filter((task) => !task.settled);
    const views = await Promise.all(unsettled.map((task) => this.stop(task.spec.id, reason)));
    return views.filter((view) => view.runtime.status === 'killed');
  }

  /**
   * On exit: stops every task, or with `keepAliveOnExit` leaves bash tasks running on their own
   * (in-process agent tasks cannot outlive the program and are stopped). No task can start after.
   * Returns the tasks it stopped.
   */
  async shutdown(reason = 'Stopped because the session ended.'): Promise<TaskView[]> {
    this.closed = true;
    let stopped: TaskView[];
    if (this.config.keepAliveOnExit) {
      const unsettled = [...this.tasks.values()].filter((task) => !task.settled);
      const leftRunning = unsettled.filter((task) => task.spec.kind === 'bash' && !task.finishing);
      for (const task of leftRunning) {
        for (const timer of task.timers) clearTimeout(timer);
        task.detach?.();
      }
      const others = unsettled.filter((task) => !leftRunning.includes(task));
      const views = await Promise.all(others.map((task) => this.stop(task.spec.id, reason)));
      stopped = views.filter((view) => view.runtime.status === 'killed');
    } else {
      stopped = await this.stopAll(reason);
    }
    await Promise.all([...this.tasks.values()].map((task) => task.folder.flush()));
    await this.outbox.flush();
    return stopped;
  }

  /** The last `maxBytes` of a task's output. */
  readOutput(id: string, maxBytes: number): ReturnType<typeof readOutputTail> {
    return readOutputTail(this.require(id).folder.outputPath, maxBytes);
  }

  /** Notifications for the model's next step, each handed out once (the soul's LLMNotificationSource). */
  async claimForLLM(max: number, signal?: AbortSignal): Promise<PendingNotification[]> {
    signal?.throwIfAborted();
    const events = await this.outbox.take('llm', max);
    return events.map((event) => ({
      type: event.type,
      text: renderNotificationForLLM(event),
      hookFields: { title: event.title, body: event.body, severity: event.severity },
    }));
  }

  /** Notifications for the Wire, each handed out once (runSoul's WireNotificationSource). */
  async drainWire(max: number, signal?: AbortSignal): Promise<WireNotification[]> {
    signal?.throwIfAborted();
    return (await this.outbox.take('wire', max)).map(toWireNotification);
  }

  /** Marks notifications found in a restored context as already delivered to the model. */
  markDeliveredToLLM(notificationIds: Iterable<string>): Promise<void> {
    return this.outbox.markDelivered('llm', notificationIds);
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
    let resolveDone!: () => void;
    const done = new Promise<void>((resolve) => {
      resolveDone = resolve;
    });
    const markDone = () => {
      partial.settled = true;
      resolveDone();
    };
    const partial = { spec, runtime, done, markDone, settled: false, stopIntent: null, finishing: false };
    const task: ManagedTask = Object.assign(partial, {
      folder: folderFor(() => task.runtime),
      kill: null,
      killing: null,
      detach: null,
      timers: [],
    });
    if (isTerminal(runtime.status)) markDone();
    this.tasks.set(spec.id, task);
    return task;
  }

  private require(id: string): ManagedTask {
    const task = this.tasks.get(id);
    if (!task) throw new BackgroundTaskNotFound(id);
    return task;
  }

  private async transition(task: ManagedTask, to: TaskStatus, fields: Partial<TaskRuntime> = {}) {
    const from = task.runtime.status;
    if (!canTransition(from, to))
      throw new Error(`Background task ${task.spec.id}: ${from} → ${to} is not allowed`);
    task.runtime = { ...task.runtime, ...fields, status: to, updated_at: unixNow() };
    await task.folder.saveRuntime();
  }

  private async setAwaitingApproval(task: ManagedTask, waiting: boolean): Promise<void> {
    if (task.finishing) return;
    const to = waiting ? 'awaiting_approval' : 'running';
    if (task.runtime.status !== to && canTransition(task.runtime.status, to)) await this.transition(task, to);
  }

  private armTimeout(task: ManagedTask, timeoutS: number | null, reason: string): void {
    if (timeoutS === null || isTerminal(task.runtime.status)) return;
    const timer = setTimeout(() => {
      void this.requestStop(task, { status: 'failed', reason, timedOut: true });
    }, timeoutS * 1000);
    task.timers.push(timer);
  }

  /** Ends the task's work for `intent` unless it is already ending on its own; resolves when it has ended. */
  private requestStop(task: ManagedTask, intent: StopIntent): Promise<void> {
    if (task.finishing || isTerminal(task.runtime.status)) return task.done;
    task.stopIntent ??= intent;
    if (task.kill && !task.killing) {
      task.killing = task.kill().catch((error: unknown) => this.options.onError?.(error));
    }
    return task.done;
  }

  private async onBashExit(task: ManagedTask, exitCode: number): Promise<void> {
    if (task.finishing) return;
    task.finishing = true;
    // A stop in progress: record the outcome only once the whole group is gone.
    if (task.killing) await task.killing;
    const intent = task.stopIntent;
    if (intent) {
      await this.finish(task, intent.status, {
        exit_code: exitCode,
        interrupted: true,
        timed_out: intent.timedOut,
        failure_reason: intent.reason,
      });
    } else {
      await this.finish(task, exitCode === 0 ? 'completed' : 'failed', { exit_code: exitCode });
    }
  }

  /** `error`: what the work threw, or null when it returned or was stopped. */
  private async onAgentEnd(task: ManagedTask, error: unknown): Promise<void> {
    if (task.finishing) return;
    task.finishing = true;
    const intent = task.stopIntent;
    if (intent) {
      await this.finish(task, intent.status, {
        interrupted: true,
        timed_out: intent.timedOut,
        failure_reason: intent.reason,
      });
    } else if (error !== null && error !== undefined) {
      await this.finish(task, 'failed', { failure_reason: errorText(error) });
    } else {
      await this.finish(task, 'completed');
    }
  }

  /** Records the outcome, publishes the task's notification, then releases everyone waiting. */
  private async finish(
    task: ManagedTask,
    status: TerminalStatus,
    fields: Partial<TaskRuntime> = {},
    { notify = true } = {},
  ): Promise<void> {
    task.finishing = true;
    for (const timer of task.timers) clearTimeout(timer);
    try {
      await this.transition(task, status, { finished_at: unixNow(), ...fields });
      if (notify) {
        const tail = await readOutputTail(task.folder.outputPath, NOTIFICATION_READ_BYTES);
        const text = tailLines(
          tail.text,
          this.config.notificationTailLines,
          this.config.notificationTailChars,
        );
        await this.outbox.publish(taskNotificationDraft(viewOf(task), status, tail.exists ? text : null));
      }
    } catch (error) {
      this.options.onError?.(error);
    } finally {
      task.markDone();
    }
  }

  /** Tasks of an earlier run: unfinished ones are adopted if their process still runs, else lost. */
  private async reconcile(): Promise<void> {
    for (const stored of await loadStoredTasks(this.tasksDir)) {
      const task = this.manage(stored.spec, stored.runtime, (current) =>
        TaskFolder.existing(this.tasksDir, stored.spec.id, current),
      );
      if (isTerminal(task.runtime.status)) continue;
      const pid = task.runtime.pid;
      if (task.spec.kind === 'bash' && pid !== null && isProcessGroupAlive(pid)) {
        this.adopt(task, pid);
      } else {
        const reason =
          task.spec.kind === 'agent'
            ? 'The session that ran this task ended before the task finished.'
            : 'The process of this task is gone and its exit status is unknown.';
        await this.finish(task, 'lost', { failure_reason: reason });
      }
    }
  }

  /** Watches a bash task still running from an earlier run; its exit status cannot be known. */
  private adopt(task: ManagedTask, pid: number): void {
    const ended = async (): Promise<void> => {
      if (task.finishing) return;
      task.finishing = true;
      const intent = task.stopIntent;
      await this.finish(
        task,
        intent?.status ?? 'lost',
        intent
          ? { interrupted: true, timed_out: intent.timedOut, failure_reason: intent.reason }
          : {
              failure_reason: 'The task ended while no session was watching it; its exit status is unknown.',
            },
      );
    };
    task.kill = async () => {
      await killProcessGroup(pid, { graceMs: this.config.killGracePeriodMs });
      await ended();
    };
    const poll = setInterval(() => {
      if (!isProcessGroupAlive(pid)) void ended();
    }, ADOPTED_TASK_POLL_MS);
    poll.unref();
    task.timers.push(poll);
  }
}

function viewOf(task: ManagedTask): TaskView {
  return { spec: task.spec, runtime: task.runtime, outputPath: task.folder.outputPath };
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
