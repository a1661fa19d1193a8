import { randomBytes } from 'node:crypto';
import type { SubagentRunner, SubagentToolResult, SwarmRunRequest } from '../../tools/runtime.js';
import { WorktreeUnavailableError, worktreeBase } from './agent-worktree.js';
import type { SubagentServices } from './run-instance.js';
import type { SubagentRunOutcome, WorktreeOwner } from './subagent-run-outcome.js';
import type { SwarmDispatch } from './swarm-dispatch.js';
import { renderSwarmReport, type SwarmEntry, swarmSummary } from './swarm-report.js';

type RunRequest = Parameters<SubagentRunner['run']>[0];
type RunOne = (request: RunRequest, owner: WorktreeOwner) => Promise<SubagentRunOutcome>;

interface SwarmTask {
  index: number;
  item: string | null;
  resume: string | null;
  prompt: string;
}

function refusal(message: string, brief: string): SubagentToolResult {
  return { isError: true, output: '', message, brief };
}

/** How one task of a bounded run ended; `skipped`: it never started, and why. */
export type BoundedResult<R> =
  | { kind: 'done'; value: R }
  | { kind: 'threw'; error: unknown }
  | { kind: 'skipped'; reason: string };

/**
 * Runs `work` over `tasks`, at most `limit` at a time, in order of the tasks. A task starts only
 * while `blocked()` says nothing (a cancel, a spent budget); the answer comes once every started
 * task has settled.
 */
export async function runBounded<T, R>(
  tasks: readonly T[],
  limit: number,
  blocked: () => string | null,
  work: (task: T) => Promise<R>,
): Promise<BoundedResult<R>[]> {
  const results: BoundedResult<R>[] = tasks.map(() => ({ kind: 'skipped', reason: '' }));
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < tasks.length) {
      const index = next++;
      const reason = blocked();
      if (reason !== null) {
        results[index] = { kind: 'skipped', reason };
        continue;
      }
      try {
        results[index] = { kind: 'done', value: await work(tasks[index] as T) };
      } catch (error) {
        results[index] = { kind: 'threw', error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, tasks.length) }, worker));
  return results;
}

/**
 * An AgentSwarm call: checks what can be checked before anything starts (the resumed ids exist; a
 * repository to isolate in), then runs every item as a foreground subagent, at most the cap at
 * once (the model's `max_concurrency`, never above the config's `[subagents] max_concurrency`),
 * each in its own worktree on `kimi-ts/<swarm id>/<index>` when isolated, and answers one report.
 * A cancel reaches every running subagent; it is rethrown once all of them (and their worktrees)
 * are gone. With `dispatch` (a fleet turn), new items run elsewhere instead, and the report is
 * made of their ends the same way (resumed agents live in this worker's folders: those run here).
 */
export async function runSwarm(
  runOne: RunOne,
  services: SubagentServices,
  request: SwarmRunRequest,
  dispatch: SwarmDispatch | null = null,
): Promise<SubagentToolResult> {
  const unknown: string[] = [];
  for (const { agentId } of request.resume) if (!(await services.store.read(agentId))) unknown.push(agentId);
  if (unknown.length > 0)
    return refusal(
      `Unknown agent id${unknown.length === 1 ? '' : 's'} in resume_agent_ids: ${unknown.join(', ')}. No subagent was started.`,
      'Unknown agent id',
    );
  if (request.isolation === 'worktree') {
    try {
      await worktreeBase(services.session.workDir, request.signal);
    } catch (error) {
      if (error instanceof WorktreeUnavailableError) return refusal(error.message, 'Worktree unavailable');
      throw error;
    }
  }
  const concurrency = Math.max(
    1,
    Math.min(request.maxConcurrency, services.config.subagents.max_concurrency),
  );
  if (dispatch !== null && request.resume.length === 0) {
    const sent = await dispatch({
      description: request.description,
      subagentType: request.subagentType,
      model: request.model,
      items: request.items,
      isolation: request.isolation,
      concurrency,
      parentToolCallId: request.parentToolCallId,
      signal: request.signal,
    });
    if (request.signal.aborted) throw request.signal.reason;
    const entries: SwarmEntry[] = request.items.map(({ item }, i) => ({
      index: i + 1,
      item,
      resumedAgentId: null,
      outcome: sent.items[i]?.outcome ?? null,
      notStarted: sent.items[i]?.notStarted ?? 'Not started.',
    }));
    return {
      isError: false,
      output: renderSwarmReport(sent.swarmId, concurrency, entries),
      message: '',
      brief: `Swarm of ${entries.length}: ${swarmSummary(entries)}`,
    };
  }
  const swarmId = `s${randomBytes(4).toString('hex')}`;
  const tasks: SwarmTask[] = [
    ...request.resume.map(({ agentId, prompt }) => ({ item: null, resume: agentId, prompt })),
    ...request.items.map(({ item, prompt }) => ({ item, resume: null, prompt })),
  ].map((task, i) => ({ ...task, index: i + 1 }));
  const goal = services.rootDeps.goalBudget;
  const blocked = (): string | null => {
    if (request.signal.aborted) return 'The swarm was cancelled before this item started.';
    const spent = goal?.budgetReached(true) ?? null;
    return spent === null ? null : `Not started: the goal's budget is spent (${spent})`;
  };
  // What the person approved for this swarm's agents ends with it (a cancel too).
  const settled = await runBounded(tasks, concurrency, blocked, (task) =>
    runOne(
      {
        description: `${request.description} #${task.index}`,
        prompt: task.prompt,
        subagentType: request.subagentType,
        model: task.resume === null ? request.model : null,
        resume: task.resume,
        runInBackground: false,
        timeoutS: null,
        parentToolCallId: request.parentToolCallId,
        signal: request.signal,
        parentRun: request.parentRun,
        isolation: request.isolation,
      },
      { id: swarmId, index: task.index },
    ),
  ).finally(() => services.approval.endSwarm(swarmId));
  if (request.signal.aborted) throw request.signal.reason;
  const entries: SwarmEntry[] = tasks.map((task, i) => {
    const result = settled[i];
    if (result?.kind === 'threw') throw result.error;
    return {
      index: task.index,
      item: task.item,
      resumedAgentId: task.resume,
      outcome: result?.kind === 'done' ? result.value : null,
      notStarted: result?.kind === 'skipped' ? result.reason : null,
    };
  });
  return {
    isError: false,
    output: renderSwarmReport(swarmId, concurrency, entries),
    message: '',
    brief: `Swarm of ${tasks.length}: ${swarmSummary(entries)}`,
  };
}
