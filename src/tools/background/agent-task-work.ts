import { appendFile } from 'node:fs/promises';
import { setTimeout as delay } from 'node:timers/promises';

/** What an in-process background task (a background subagent) is given to do its work. */
export interface AgentTaskContext {
  readonly taskId: string;
  /** Aborted when the task is stopped or times out; the work must settle soon after. */
  readonly signal: AbortSignal;
  /** Appends to the task's output.log (what TaskOutput shows and notifications quote). */
  writeOutput(text: string): Promise<void>;
  /** Marks the task as waiting for the user to answer an approval, or running again. */
  setAwaitingApproval(waiting: boolean): Promise<void>;
}

export type AgentTaskWork = (ctx: AgentTaskContext) => Promise<void>;

/** How the work ended: returned, threw, or was given up on after a stop. */
export type AgentWorkEnd = { kind: 'returned' } | { kind: 'threw'; error: unknown } | { kind: 'abandoned' };

export interface RunningAgentWork {
  /** Settles when the work settles, with how it ended. */
  readonly ended: Promise<AgentWorkEnd>;
  /**
   * Aborts the work and waits up to `graceMs` for it to settle; resolves with `abandoned` if it
   * did not (it can no longer write output or change the task either way).
   */
  stop(reason: string, graceMs: number): Promise<AgentWorkEnd>;
}

/** Runs `work` at once, with output appended in order to `outputPath`. */
export function runAgentWork(
  work: AgentTaskWork,
  taskId: string,
  outputPath: string,
  setAwaitingApproval: (waiting: boolean) => Promise<void>,
): RunningAgentWork {
  const controller = new AbortController();
  let writes: Promise<void> = Promise.resolve();
  let open = true;
  const ctx: AgentTaskContext = {
    taskId,
    signal: controller.signal,
    writeOutput(text) {
      if (!open) return Promise.resolve();
      const next = writes.then(() => appendFile(outputPath, text));
      writes = next.catch(() => {});
      return next;
    },
    setAwaitingApproval: (waiting) => (open ? setAwaitingApproval(waiting) : Promise.resolve()),
  };
  const ended: Promise<AgentWorkEnd> = Promise.resolve()
    .then(() => work(ctx))
    .then(
      (): AgentWorkEnd => ({ kind: 'returned' }),
      (error: unknown): AgentWorkEnd => ({ kind: 'threw', error }),
    )
    .then(async (end) => {
      open = false;
      await writes;
      return end;
    });

  return {
    ended,
    async stop(reason, graceMs) {
      controller.abort(new Error(reason));
      const timer = new AbortController();
      const gaveUp = delay(graceMs, { kind: 'abandoned' } as AgentWorkEnd, { signal: timer.signal }).catch(
        (): AgentWorkEnd => ({ kind: 'abandoned' }),
      );
      const end = await Promise.race([ended, gaveUp]);
      timer.abort();
      open = false;
      return end;
    },
  };
}
