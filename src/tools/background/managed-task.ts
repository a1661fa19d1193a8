import {
  canTransition,
  isTerminal,
  type TaskRuntime,
  type TaskSpec,
  type TaskStatus,
  type TaskView,
  type TerminalStatus,
  unixNow,
} from './task-model.js';
import type { TaskFolder } from './task-store.js';

/** Why and how a task is being ended by us rather than on its own. */
export interface StopIntent {
  status: 'killed' | 'failed';
  reason: string;
  timedOut: boolean;
}

export interface ManagedTaskHooks {
  /** Publishes the notification of a task that just ended. */
  notify(view: TaskView, status: TerminalStatus): Promise<void>;
  /** Bookkeeping failures (a file that could not be written); the task goes on regardless. */
  onError(error: unknown): void;
}

/**
 * One task's state machine. The runtime is replaced, never mutated, on each transition, so views
 * handed out stay as they were. The outcome is recorded once (`finishing` guards it), and `done`
 * resolves only after it is on disk and its notification is published.
 */
export class ManagedTask {
  runtime: TaskRuntime;
  readonly folder: TaskFolder;
  readonly done: Promise<void>;
  /** The outcome is recorded and its notification published. */
  settled = false;
  /** The outcome is being recorded; later stops only wait for it. */
  finishing = false;
  stopIntent: StopIntent | null = null;
  /** Ends the task's work (kills its process group, aborts its function); set once the work runs. */
  kill: (() => Promise<void>) | null = null;
  /** Lets this program exit while the task keeps running. */
  detach: (() => void) | null = null;
  private killing: Promise<void> | null = null;
  private readonly timers: NodeJS.Timeout[] = [];
  private resolveDone!: () => void;

  constructor(
    readonly spec: TaskSpec,
    runtime: TaskRuntime,
    folderFor: (current: () => TaskRuntime) => TaskFolder,
    private readonly hooks: ManagedTaskHooks,
  ) {
    this.runtime = runtime;
    this.folder = folderFor(() => this.runtime);
    this.done = new Promise((resolve) => {
      this.resolveDone = resolve;
    });
    if (isTerminal(runtime.status)) this.markSettled();
  }

  get view(): TaskView {
    return { spec: this.spec, runtime: this.runtime, outputPath: this.folder.outputPath };
  }

  get isActive(): boolean {
    return !isTerminal(this.runtime.status);
  }

  /** Moves to `to` (an illegal move is a bug and throws) and saves runtime.json. */
  async transition(to: TaskStatus, fields: Partial<TaskRuntime> = {}): Promise<void> {
    const from = this.runtime.status;
    if (!canTransition(from, to))
      throw new Error(`Background task ${this.spec.id}: ${from} → ${to} is not allowed`);
    this.runtime = { ...this.runtime, ...fields, status: to, updated_at: unixNow() };
    try {
      await this.folder.saveRuntime();
    } catch (error) {
      // The state in memory stays authoritative; a later write may still succeed.
      this.hooks.onError(error);
    }
  }

  async setAwaitingApproval(waiting: boolean): Promise<void> {
    const to = waiting ? 'awaiting_approval' : 'running';
    if (this.finishing || this.runtime.status === to || !canTransition(this.runtime.status, to)) return;
    await this.transition(to);
  }

  /** Fails the task as timed out after `timeoutS` seconds (none when null). */
  armTimeout(timeoutS: number | null, reason: string): void {
    if (timeoutS === null || !this.isActive) return;
    this.addTimer(
      setTimeout(() => {
        void this.requestStop({ status: 'failed', reason, timedOut: true });
      }, timeoutS * 1000),
    );
  }

  addTimer(timer: NodeJS.Timeout): void {
    this.timers.push(timer);
  }

  clearTimers(): void {
    for (const timer of this.timers) clearTimeout(timer);
  }

  /** Ends the work for `intent` unless the task is already ending on its own; resolves once it has ended. */
  requestStop(intent: StopIntent): Promise<void> {
    if (this.finishing || !this.isActive) return this.done;
    this.stopIntent ??= intent;
    if (this.kill && !this.killing)
      this.killing = this.kill().catch((error: unknown) => this.hooks.onError(error));
    return this.done;
  }

  /** Resolves once a kill in progress (if any) has finished. */
  async killFinished(): Promise<void> {
    await this.killing;
  }

  /**
   * Records how the work ended: as the stop intent says when we ended it, else as `status`.
   * Only the first call counts.
   */
  async ended(status: TerminalStatus, fields: Partial<TaskRuntime> = {}): Promise<void> {
    if (this.finishing) return;
    this.finishing = true;
    const intent = this.stopIntent;
    if (intent) {
      await this.finish(intent.status, {
        ...fields,
        interrupted: true,
        timed_out: intent.timedOut,
        failure_reason: intent.reason,
      });
    } else {
      await this.finish(status, fields);
    }
  }

  /** Records the outcome, publishes the notification, then releases everyone waiting. */
  async finish(
    status: TerminalStatus,
    fields: Partial<TaskRuntime> = {},
    { notify = true } = {},
  ): Promise<void> {
    this.finishing = true;
    this.clearTimers();
    try {
      await this.transition(status, { finished_at: unixNow(), ...fields });
      if (notify) await this.hooks.notify(this.view, status);
    } catch (error) {
      this.hooks.onError(error);
    } finally {
      this.markSettled();
    }
  }

  private markSettled(): void {
    this.settled = true;
    this.resolveDone();
  }
}
