import { randomBytes } from 'node:crypto';
import type { SubagentRunner } from '../../tools/runtime.js';
import type { ApprovalSource } from '../../toolset/approval/approval-source.js';
import { reporterOn, runContextOr } from '../../toolset/run-scope.js';
import type { Wire } from '../../wire/wire.js';
import { forwardToParent } from './forward-events.js';
import { type PreparedRun, runInstance, type SubagentServices } from './run-instance.js';
import { describeSubagentFailure, isCancellation, timeoutFailure } from './subagent-failure.js';
import { foregroundOutput } from './subagent-output.js';

type RunRequest = Parameters<SubagentRunner['run']>[0];
type RunResult = Awaited<ReturnType<SubagentRunner['run']>>;

/** The tool's result, and the subagent's final answer when it completed. */
export type ForegroundResult = RunResult & { report: string | null };

/** Hook payloads carry at most this much of the prompt / response. */
const HOOK_TEXT_LIMIT = 500;

/**
 * Runs the subagent while the Agent tool call waits: SubagentStart hook, the run (its events shown
 * on the parent's wire as SubagentEvents, its approvals asked of the user), SubagentStop hook. A
 * cancelled call cancels the run and is rethrown; everything else becomes the tool's result.
 */
export async function runForeground(
  services: SubagentServices,
  run: PreparedRun,
  request: RunRequest,
  /** The swarm this run is an item of (its approvals may be answered for the swarm); null for one Agent call. */
  swarmId: string | null = null,
): Promise<ForegroundResult> {
  const { store, hooks, approval } = services;
  const agentId = run.record.agent_id;
  const typeName = run.type.name;
  let record = await store.update(run.record, { status: 'running_foreground', description: run.description });
  const source: ApprovalSource = {
    kind: 'foreground_turn',
    id: `${agentId}-${randomBytes(4).toString('hex')}`,
    agent_id: agentId,
    subagent_type: typeName,
    description: run.description,
    parent_tool_call_id: request.parentToolCallId,
    swarm_id: swarmId,
  };
  const parentWire = runContextOr(request.parentRun).wire;
  const control = new AbortController();
  const onCancel = (): void => control.abort(request.signal.reason);
  request.signal.addEventListener('abort', onCancel, { once: true });
  let timedOut = false;
  const timer =
    request.timeoutS === null
      ? undefined
      : setTimeout(() => {
          timedOut = true;
          control.abort(new Error(`Agent timed out after ${request.timeoutS}s.`));
        }, request.timeoutS * 1000);

  try {
    if (request.signal.aborted) throw request.signal.reason;
    await hooks.trigger('SubagentStart', {
      target: typeName,
      input: { agent_name: typeName, prompt: run.prompt.slice(0, HOOK_TEXT_LIMIT) },
      signal: control.signal,
      report: reporterOn(parentWire),
    });
    const report = await runInstance(services, run, {
      cancel: control.signal,
      source,
      forward: forwardToParent({
        parentToolCallId: request.parentToolCallId,
        agentId,
        subagentType: typeName,
        sendEvent: parentWire ? (message) => parentWire.send(message) : null,
        sendRequest: (pending) => {
          if (parentWire) parentWire.send(pending);
          else pending.cancel('No front end can answer the subagent.');
        },
      }),
    });
    record = await store.update(record, { status: 'idle' });
    await store.writeOutput(agentId, report);
    fireStop(services, typeName, report, parentWire);
    return {
      isError: false,
      output: foregroundOutput({
        agentId,
        resumed: !run.fresh,
        requestedType: run.requestedType,
        actualType: typeName,
        report,
      }),
      message: '',
      brief: '',
      report,
    };
  } catch (error) {
    if (request.signal.aborted && !timedOut) {
      await store.update(record, { status: 'killed' }).catch(() => undefined);
      throw isCancellation(error) ? request.signal.reason : error;
    }
    const failure =
      timedOut && request.timeoutS !== null
        ? timeoutFailure(request.timeoutS)
        : describeSubagentFailure(error);
    await store.update(record, { status: 'failed' }).catch(() => undefined);
    fireStop(services, typeName, failure.message, parentWire);
    return { isError: true, output: '', message: failure.message, brief: failure.brief, report: null };
  } finally {
    clearTimeout(timer);
    request.signal.removeEventListener('abort', onCancel);
    approval.runtime.cancelBySource(source.kind, source.id, 'The subagent run ended.');
  }
}

function fireStop(
  services: SubagentServices,
  typeName: string,
  response: string,
  parentWire: Wire | null,
): void {
  void services.hooks.fire('SubagentStop', {
    target: typeName,
    input: { agent_name: typeName, response: response.slice(0, HOOK_TEXT_LIMIT) },
    report: reporterOn(parentWire),
  });
}
