import { APIStatusError, ChatProviderError, isAbortError } from '../../kosong/errors.js';
import { MaxStepsReached, RunCancelled } from '../../soul/errors.js';
import { EmptyAgentOutput, InvalidAgentResult } from './run-until-report.js';

/** What the Agent tool answers when a subagent run fails: a message for the model and a brief. */
export interface SubagentFailure {
  message: string;
  brief: string;
}

/** The subagent could not be set up (its tools failed to load, its folder is unusable, ...). */
export class SubagentLaunchError extends Error {
  override name = 'SubagentLaunchError';
}

/** Maps the error that ended a subagent run to the Agent tool's error (reference §1.11). */
export function describeSubagentFailure(error: unknown): SubagentFailure {
  const cause = unwrapCancelled(error);
  if (cause instanceof SubagentLaunchError) return launchFailure(cause);
  if (cause instanceof MaxStepsReached) {
    return {
      message: `Max steps ${cause.maxSteps} reached when running agent. Please try splitting the task into smaller subtasks.`,
      brief: 'Max steps reached',
    };
  }
  if (cause instanceof APIStatusError) {
    return {
      message: `LLM API error (HTTP ${cause.statusCode}) when running agent: ${cause.message}`,
      brief: `API error (${cause.statusCode})`,
    };
  }
  if (cause instanceof ChatProviderError) {
    return {
      message: `LLM provider error when running agent: ${cause.message}`,
      brief: 'LLM provider error',
    };
  }
  if (cause instanceof InvalidAgentResult) return { message: cause.message, brief: 'Invalid agent result' };
  if (cause instanceof EmptyAgentOutput) return { message: cause.message, brief: 'Empty agent output' };
  return { message: `Unexpected error when running agent: ${errorText(cause)}`, brief: 'Agent run error' };
}

export function timeoutFailure(timeoutS: number): SubagentFailure {
  return { message: `Agent timed out after ${timeoutS}s.`, brief: `Agent timed out (${timeoutS}s)` };
}

/** A failure before the subagent could start (its tools, its model, its folder). */
export function launchFailure(error: unknown): SubagentFailure {
  return { message: `Failed to run agent: ${errorText(error)}`, brief: 'Agent failed' };
}

/** Whether the error is a cancellation rather than a failure of the run. */
export function isCancellation(error: unknown): boolean {
  return error instanceof RunCancelled || isAbortError(error);
}

function unwrapCancelled(error: unknown): unknown {
  return error instanceof RunCancelled && error.cause !== undefined ? error.cause : error;
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
