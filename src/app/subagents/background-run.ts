import type { SubagentRunner } from '../../tools/runtime.js';
import type { ApprovalSource } from '../../toolset/approval/approval-source.js';
import type { Wire } from '../../wire/wire.js';
import { watchBackgroundApprovals } from './background-approvals.js';
import { forwardToParent } from './forward-events.js';
import { type PreparedRun, runInstance, type SubagentServices } from './run-instance.js';
import { describeSubagentFailure } from './subagent-failure.js';
import { backgroundStartedOutput, foregroundOutput } from './subagent-output.js';

type RunRequest = Parameters<SubagentRunner['run']>[0];
type RunResult = Awaited<ReturnType<SubagentRunner['run']>>;

/**
 * Starts the subagent as a background agent task and answers at once with the task id. The
 * instance is marked `running_background` before the task is dispatched and put back (or deleted,
 * when it was created for this request) if the dispatch fails. The task's output is the report; a
 * failed run fails the task with the mapped message. `release` frees the instance when the run ends.
 */
export async function startBackgroundRun(
  services: SubagentServices,
  run: PreparedRun,
  request: RunRequest,
  release: () => void,
): Promise<RunResult> {
  const { store } = services;
  const manager = services.rootDeps.backgroundTasks;
  const agentId = run.record.agent_id;
  const typeName = run.type.name;
  if (!manager) {
    await rollBack(services, run);
    release();
    return {
      isError: true,
      output: '',
      message: 'Background tasks are not available in this session.',
      brief: 'Background start failed',
    };
  }
  let record = await store.update(run.record, { status: 'running_background', description: run.description });
  let view: Awaited<ReturnType<typeof manager.startAgent>>;
  try {
    view = await manager.startAgent({
      description: run.description,
      timeoutS: request.timeoutS ?? undefined,
      metadata: { agent_id: agentId, subagent_type: typeName },
      run: async (task) => {
        const source: ApprovalSource = {
          kind: 'background_agent',
          id: task.taskId,
          agent_id: agentId,
          subagent_type: typeName,
          description: run.description,
          parent_tool_call_id: request.parentToolCallId,
        };
        let subagentWire: Wire | null = null;
        const stopWatching = watchBackgroundApprovals({
          runtime: services.approval.runtime,
          taskId: task.taskId,
          subagentWire: () => subagentWire,
          tracker: services.rootWires,
          setAwaitingApproval: (waiting) => task.setAwaitingApproval(waiting),
        });
        const forward = forwardToParent({
          parentToolCallId: request.parentToolCallId,
          agentId,
          subagentType: typeName,
          sendEvent: null,
          sendRequest: (pending) => services.rootWires.deliver(pending),
        });
        // A stop marks the instance killed at once: the closer may stop waiting for the work to
        // unwind (its grace), and the record must not be left saying it runs.
        let killedWrite: Promise<unknown> | null = null;
        const markKilled = () => {
          killedWrite ??= store.update(record, { status: 'killed' }).catch(() => undefined);
          return killedWrite;
        };
        task.signal.addEventListener('abort', () => void markKilled(), { once: true });
        try {
          record = await store.update(record, { last_task_id: task.taskId });
          const report = await runInstance(services, run, {
            cancel: task.signal,
            source,
            forward: (wire, signal) => {
              subagentWire = wire;
              return forward(wire, signal);
            },
          });
          await store.writeOutput(agentId, report);
          record = await store.update(record, { status: 'idle' });
          await task.writeOutput(
            foregroundOutput({
              agentId,
              resumed: !run.fresh,
              requestedType: run.requestedType,
              actualType: typeName,
              report,
            }),
          );
        } catch (error) {
          if (task.signal.aborted) {
            await markKilled();
            throw error;
          }
          await store.update(record, { status: 'failed' }).catch(() => undefined);
          throw new Error(describeSubagentFailure(error).message, { cause: error });
        } finally {
          stopWatching();
          services.approval.runtime.cancelBySource(source.kind, source.id, 'The background agent ended.');
          release();
        }
      },
    });
  } catch (error) {
    await rollBack(services, run);
    release();
    return {
      isError: true,
      output: '',
      message: error instanceof Error ? error.message : String(error),
      brief: 'Background start failed',
    };
  }
  return {
    isError: false,
    output: backgroundStartedOutput({
      taskId: view.spec.id,
      status: view.runtime.status,
      description: run.description,
      agentId,
      actualType: typeName,
    }),
    message: 'Background task started.',
    brief: '',
  };
}

/** Undoes the `running_background` mark of a run that could not be dispatched (the record as it was). */
async function rollBack(services: SubagentServices, run: PreparedRun): Promise<void> {
  if (run.fresh) await services.store.remove(run.record.agent_id);
  else await services.store.update(run.record, {});
}
