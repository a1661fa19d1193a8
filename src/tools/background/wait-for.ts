import { z } from 'zod';
import { toolError } from '../../kosong/index.js';
import { declareParameters } from '../../toolset/declared-parameters.js';
import { toolFactory } from '../../toolset/loading/dependencies.js';
import { loadToolDescription } from '../../toolset/loading/tool-description.js';
import type { BackgroundTaskManager } from './background-task-manager.js';
import { rootOnlyError } from './root-only.js';
import { formatTaskList, taskDisplayBlock, taskFieldLines } from './task-format.js';
import { isTerminal, type TaskView } from './task-model.js';
import { TASK_OUTPUT_PREVIEW_BYTES } from './task-output.js';
import type { WaitHere, WaitRequest } from './wait-parking.js';

/** Kimi Code's ceiling for one wait; a longer one is clamped, and the result says so. */
export const WAIT_FOR_MAX_TIMEOUT_S = 600;

type WaitStatus = 'completed' | 'timed_out' | 'no_tasks';

const waitForParams = declareParameters('WaitFor', () =>
  z.object({
    timeout: z
      .number()
      .positive()
      .describe(`The longest wait in seconds (at most ${WAIT_FOR_MAX_TIMEOUT_S}; a longer one is cut).`),
    task_id: z
      .string()
      .optional()
      .describe('A background task id, or a background agent id. Omitted: wait for any task running now.'),
  }),
);

/**
 * WaitFor (Kimi Code): waits inside the turn for a background task or agent to finish, up to 600 s.
 * A timeout is not an error; the turn's AbortSignal ends the wait (never the task).
 */
export const WaitFor = toolFactory(['backgroundTasks', 'role', 'descriptionVars'], async (deps, kit) => {
  return kit.defineTool({
    name: 'WaitFor',
    description: await loadToolDescription(new URL('./wait-for.md', import.meta.url), deps.descriptionVars),
    params: waitForParams,
    effect: 'read-only',
    call: async ({ timeout, task_id }, ctx) => {
      const refusal = rootOnlyError(deps.role);
      if (refusal) return refusal;
      const tasks = deps.backgroundTasks;
      const clamped = timeout > WAIT_FOR_MAX_TIMEOUT_S;
      const timeoutMs = Math.round(Math.min(timeout, WAIT_FOR_MAX_TIMEOUT_S) * 1000);
      const startedAt = Date.now();
      const notes = clamped
        ? [
            `note: timeout ${timeout}s is above the ${WAIT_FOR_MAX_TIMEOUT_S}s ceiling; waited at most ${WAIT_FOR_MAX_TIMEOUT_S}s.`,
          ]
        : [];

      if (task_id === undefined) {
        const running = tasks.list({ activeOnly: true });
        if (running.length === 0) {
          return {
            is_error: false,
            output: [
              ...header('no_tasks', null, 0, timeoutMs),
              ...notes,
              'No background tasks are running, so there is nothing to wait for.',
            ].join('\n'),
            message: 'Nothing to wait for.',
            display: [],
          };
        }
        const here = waitHere(tasks, running, { taskIds: [], timeoutMs, startedAt });
        if (here === 'parked') return parkedTurn(ctx.signal);
        const finished = await withProgress(ctx.reportOutput, here.startedAt, timeoutMs, () =>
          waitForAny(tasks, running, here.waitMs, ctx.signal),
        );
        const waitedMs = Date.now() - here.startedAt;
        if (!finished) return timedOut(tasks, null, waitedMs, timeoutMs, notes);
        return completed(tasks, finished, waitedMs, timeoutMs, notes);
      }

      const id = resolveTaskId(tasks, task_id);
      if (!id)
        return toolError(
          `No background task or background agent has the id ${JSON.stringify(task_id)}. TaskList shows the ids.`,
          'Task not found',
        );
      const task = tasks.get(id);
      const here = waitHere(tasks, task ? [task] : [], { taskIds: [], timeoutMs, startedAt });
      if (here === 'parked') return parkedTurn(ctx.signal);
      const view = await withProgress(ctx.reportOutput, here.startedAt, timeoutMs, () =>
        tasks.wait(id, here.waitMs, ctx.signal),
      );
      const waitedMs = Date.now() - here.startedAt;
      if (!isTerminal(view.runtime.status)) return timedOut(tasks, view, waitedMs, timeoutMs, notes);
      return completed(tasks, view, waitedMs, timeoutMs, notes);
    },
  });
});

/**
 * How long this WaitFor waits here: a fleet worker parks the turn instead of holding a worker for
 * a wait on tasks still running (a finished one needs no wait).
 */
function waitHere(
  tasks: BackgroundTaskManager,
  waited: readonly TaskView[],
  wait: WaitRequest,
): 'parked' | WaitHere {
  const unsettled = waited.filter((view) => tasks.unsettledIds().includes(view.spec.id));
  if (tasks.waitParker === null) return { waitMs: wait.timeoutMs, startedAt: wait.startedAt };
  // Asked even when the tasks have ended: a redone WaitFor counts its wait from the one that parked.
  return tasks.waitParker({ ...wait, taskIds: unsettled.map((view) => view.spec.id) });
}

/**
 * The turn is being stopped (parked): nothing of this step is committed, so this result is never
 * seen; it waits for the stop, which comes at once.
 */
async function parkedTurn(signal: AbortSignal): Promise<never> {
  signal.throwIfAborted();
  return new Promise<never>((_resolve, reject) => {
    signal.addEventListener('abort', () => reject(signal.reason), { once: true });
  });
}

/** How often a front end is told the wait goes on. */
const PROGRESS_EVERY_MS = 10_000;

/** Runs the wait, telling front ends every 10 s how long it has waited (the timer ends with it). */
export async function withProgress<T>(
  report: ((text: string) => void) | undefined,
  startedAt: number,
  timeoutMs: number,
  wait: () => Promise<T>,
): Promise<T> {
  const timer = report
    ? setInterval(() => {
        const waited = Math.round((Date.now() - startedAt) / 1000);
        report(`still waiting: ${waited}s of ${Math.round(timeoutMs / 1000)}s\n`);
      }, PROGRESS_EVERY_MS)
    : null;
  timer?.unref();
  try {
    return await wait();
  } finally {
    if (timer) clearInterval(timer);
  }
}

/** A task id as it is, or the newest task of a background agent named by its agent id. */
function resolveTaskId(tasks: BackgroundTaskManager, id: string): string | null {
  if (tasks.get(id)) return id;
  const ofAgent = tasks
    .list()
    .find((view) => view.spec.kind === 'agent' && view.spec.metadata.agent_id === id);
  return ofAgent?.spec.id ?? null;
}

/** The first of `running` to finish, or null when the timeout passes first; no waiter outlives it. */
async function waitForAny(
  tasks: BackgroundTaskManager,
  running: readonly TaskView[],
  timeoutMs: number,
  signal: AbortSignal,
): Promise<TaskView | null> {
  const own = new AbortController();
  const stop = () => own.abort(signal.reason);
  signal.addEventListener('abort', stop, { once: true });
  try {
    return await new Promise<TaskView | null>((resolve, reject) => {
      // Every waiter ends at its task's end or at the shared timeout: the first finished task wins;
      // when all of them time out there is none. An abort rejects them all.
      let pending = running.length;
      for (const view of running)
        tasks.wait(view.spec.id, timeoutMs, own.signal).then((after) => {
          if (isTerminal(after.runtime.status)) resolve(after);
          else if (--pending === 0) resolve(null);
        }, reject);
    });
  } finally {
    signal.removeEventListener('abort', stop);
    // The other waiters (and their timers) end with this one.
    own.abort();
  }
}

function header(status: WaitStatus, taskId: string | null, waitedMs: number, timeoutMs: number): string[] {
  return [
    `wait_status: ${status}`,
    ...(taskId ? [`task_id: ${taskId}`] : []),
    `waited_ms: ${waitedMs}`,
    `timeout_ms: ${timeoutMs}`,
  ];
}

function stillRunning(tasks: BackgroundTaskManager): string[] {
  const running = tasks.list({ activeOnly: true });
  return running.length > 0 ? ['', '[still_running]', formatTaskList(running, true)] : [];
}

function timedOut(
  tasks: BackgroundTaskManager,
  view: TaskView | null,
  waitedMs: number,
  timeoutMs: number,
  notes: string[],
) {
  return {
    is_error: false,
    output: [
      ...header('timed_out', view?.spec.id ?? null, waitedMs, timeoutMs),
      ...notes,
      'The wait ended before the task finished; a timeout is not an error. Call WaitFor again to keep waiting, or go on with other work: the result also arrives by itself when the task ends.',
      ...(view ? ['', '[current]', ...taskFieldLines(view)] : []),
      ...stillRunning(tasks),
    ].join('\n'),
    message: 'Still running.',
    display: view ? [taskDisplayBlock(view)] : [],
  };
}

async function completed(
  tasks: BackgroundTaskManager,
  view: TaskView,
  waitedMs: number,
  timeoutMs: number,
  notes: string[],
) {
  const tail = await tasks.readOutput(view.spec.id, TASK_OUTPUT_PREVIEW_BYTES);
  // Kimi Code: a result WaitFor delivered is not delivered again as a notification.
  await tasks.reportedToModel(view.spec.id);
  let output = tail.text.replace(/\n+$/, '') || '[no output available]';
  if (tail.truncated) output = `[Truncated. Full output: ${view.outputPath}]\n\n${output}`;
  return {
    is_error: false,
    output: [
      ...header('completed', view.spec.id, waitedMs, timeoutMs),
      ...notes,
      '',
      '[finished]',
      ...taskFieldLines(view),
      `output_path: ${view.outputPath}`,
      ...stillRunning(tasks),
      '',
      '[output]',
      output,
    ].join('\n'),
    message: 'Task finished.',
    display: [taskDisplayBlock(view)],
  };
}
