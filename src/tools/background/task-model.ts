import { z } from 'zod';
import { builtOnFirstUse } from '../../util/built-on-first-use.js';

/**
 * A background task's lifecycle, as stored in `runtime.json`:
 *
 *     created → starting → running ⇄ awaiting_approval
 *        │         │          │
 *        └─────────┴──────────┴──→ completed | failed | killed | lost   (terminal)
 */
export const TASK_STATUSES = [
  'created',
  'starting',
  'running',
  'awaiting_approval',
  'completed',
  'failed',
  'killed',
  'lost',
] as const;
export type TaskStatus = (typeof TASK_STATUSES)[number];

export const TERMINAL_STATUSES: ReadonlySet<TaskStatus> = new Set(['completed', 'failed', 'killed', 'lost']);

export type TerminalStatus = 'completed' | 'failed' | 'killed' | 'lost';

export function isTerminal(status: TaskStatus): status is TerminalStatus {
  return TERMINAL_STATUSES.has(status);
}

const NEXT_STATUSES: Record<TaskStatus, readonly TaskStatus[]> = {
  created: ['starting', 'failed', 'killed', 'lost'],
  starting: ['running', 'failed', 'killed', 'lost'],
  running: ['awaiting_approval', 'completed', 'failed', 'killed', 'lost'],
  awaiting_approval: ['running', 'completed', 'failed', 'killed', 'lost'],
  completed: [],
  failed: [],
  killed: [],
  lost: [],
};

export function canTransition(from: TaskStatus, to: TaskStatus): boolean {
  return NEXT_STATUSES[from].includes(to);
}

export type TaskKind = 'bash' | 'agent';

/**
 * The schemas of a task's files, built on the first read: a new session has no task to read, and
 * making them at load was part of every start's time to the first model request.
 */
function buildSchemas() {
  /** `spec.json`: what the task is; written once. */
  const taskSpecSchema = z.object({
    version: z.literal(1),
    id: z.string(),
    kind: z.enum(['bash', 'agent']),
    description: z.string(),
    /** Unix time in seconds. */
    created_at: z.number(),
    /** bash only. */
    command: z.string().nullable(),
    shell_path: z.string().nullable(),
    cwd: z.string().nullable(),
    /** The task is failed as timed out after this long; null for no limit. */
    timeout_s: z.number().nullable(),
    /** Kind-specific facts (the agent id of a background subagent, …). */
    metadata: z.record(z.string(), z.string()),
  });

  /** `runtime.json`: how the task is doing; rewritten atomically on every change. */
  const taskRuntimeSchema = z.object({
    status: z.enum(TASK_STATUSES),
    /** The bash process, also the id of its process group. */
    pid: z.number().nullable(),
    started_at: z.number().nullable(),
    updated_at: z.number(),
    finished_at: z.number().nullable(),
    exit_code: z.number().nullable(),
    /** Ended by a signal we sent (stop or timeout) rather than on its own. */
    interrupted: z.boolean(),
    timed_out: z.boolean(),
    failure_reason: z.string().nullable(),
  });
  return { taskSpecSchema, taskRuntimeSchema };
}

export const taskFileSchemas = builtOnFirstUse(buildSchemas);

export type TaskSpec = z.infer<ReturnType<typeof buildSchemas>['taskSpecSchema']>;
export type TaskRuntime = z.infer<ReturnType<typeof buildSchemas>['taskRuntimeSchema']>;

/** A task as callers see it: a snapshot, never mutated after it is handed out. */
export interface TaskView {
  readonly spec: TaskSpec;
  readonly runtime: TaskRuntime;
  /** `<sessionDir>/tasks/<id>/output.log`. */
  readonly outputPath: string;
}

/** Unix time in seconds, as the task files store it. */
export function unixNow(): number {
  return Date.now() / 1000;
}
