import type { TaskView, TerminalStatus } from './task-model.js';

export type TaskNotificationType =
  | 'task.completed'
  | 'task.failed'
  | 'task.timed_out'
  | 'task.killed'
  | 'task.lost';

interface Outcome {
  type: TaskNotificationType;
  severity: 'success' | 'error' | 'warning';
  headline: string;
}

/** What a finished task is reported as; a timed-out task is failed with `timed_out` set. */
export function taskOutcome(status: TerminalStatus, timedOut: boolean): Outcome {
  switch (status) {
    case 'completed':
      return { type: 'task.completed', severity: 'success', headline: 'Background task completed' };
    case 'failed':
      return timedOut
        ? { type: 'task.timed_out', severity: 'error', headline: 'Background task timed out' }
        : { type: 'task.failed', severity: 'error', headline: 'Background task failed' };
    case 'killed':
      return { type: 'task.killed', severity: 'warning', headline: 'Background task stopped' };
    case 'lost':
      return { type: 'task.lost', severity: 'warning', headline: 'Background task lost' };
  }
}

/**
 * What the manager publishes when a task ends: a notification without the fields its store adds
 * (id, time, sinks). Its shape is the store's (the session's notification outbox), checked where
 * the app hands the outbox to the manager; tools do not import the wire that declares it.
 */
export type TaskNotificationDraft = ReturnType<typeof taskNotificationDraft>;

/** Where ended tasks' notifications go (the session's notification outbox, injected by the app). */
export interface TaskNotificationSink {
  publish(draft: TaskNotificationDraft): Promise<unknown>;
  /**
   * The model already has the task's result (WaitFor returned it): its notifications no longer go
   * to the model (front ends still get them). Optional: a sink without it repeats the result.
   */
  acknowledgeForModel?(taskId: string): Promise<void>;
  /** Resolves once every pending write is on disk. */
  flush(): Promise<void>;
}

/** The notification for a task that reached `status`; one per task and outcome (the dedupe key). */
export function taskNotificationDraft(view: TaskView, status: TerminalStatus, outputTail: string | null) {
  const { spec, runtime } = view;
  const outcome = taskOutcome(status, runtime.timed_out);
  const durationS =
    runtime.started_at !== null && runtime.finished_at !== null
      ? Math.max(0, Math.round((runtime.finished_at - runtime.started_at) * 10) / 10)
      : null;
  const finishedAt = runtime.finished_at === null ? null : new Date(runtime.finished_at * 1000).toISOString();
  const statusLine = [
    status,
    finishedAt ? `at ${finishedAt}` : null,
    durationS !== null ? `after ${durationS}s` : null,
  ]
    .filter((part) => part !== null)
    .join(' ');
  const body = [
    `Task ID: ${spec.id}`,
    `Status: ${statusLine}`,
    `Description: ${spec.description}`,
    runtime.exit_code !== null ? `Exit code: ${runtime.exit_code}` : null,
    runtime.failure_reason ? `Failure reason: ${runtime.failure_reason}` : null,
  ]
    .filter((line) => line !== null)
    .join('\n');
  return {
    category: 'task',
    type: outcome.type,
    source_kind: 'background_task',
    source_id: spec.id,
    title: `${outcome.headline}: ${spec.description}`,
    body,
    severity: outcome.severity,
    payload: {
      task_id: spec.id,
      task_kind: spec.kind,
      status,
      description: spec.description,
      exit_code: runtime.exit_code,
      interrupted: runtime.interrupted,
      timed_out: runtime.timed_out,
      failure_reason: runtime.failure_reason,
      finished_at: runtime.finished_at,
      duration_s: durationS,
      output_path: view.outputPath,
    },
    dedupe_key: `background_task:${spec.id}:${outcome.type.slice('task.'.length)}`,
    output_tail: outputTail,
  };
}
