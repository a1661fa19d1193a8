import { describe, expect, it } from 'vitest';
import { APIConnectionError, APIStatusError } from '../../kosong/errors.js';
import { MaxStepsReached, RunCancelled } from '../../soul/errors.js';
import { EmptyAgentOutput, InvalidAgentResult } from './run-until-report.js';
import {
  describeSubagentFailure,
  isCancellation,
  SubagentLaunchError,
  timeoutFailure,
} from './subagent-failure.js';

describe('describeSubagentFailure', () => {
  it.each([
    [
      new MaxStepsReached(7),
      'Max steps 7 reached when running agent. Please try splitting the task into smaller subtasks.',
      'Max steps reached',
    ],
    [
      new APIStatusError('slow down', 429),
      'LLM API error (HTTP 429) when running agent: slow down',
      'API error (429)',
    ],
    [new APIConnectionError('reset'), 'LLM provider error when running agent: reset', 'LLM provider error'],
    [
      new InvalidAgentResult(),
      'The agent did not produce a valid assistant response.',
      'Invalid agent result',
    ],
    [new EmptyAgentOutput(), 'Agent completed but produced no output.', 'Empty agent output'],
    [new SubagentLaunchError('no such tool'), 'Failed to run agent: no such tool', 'Agent failed'],
    [new TypeError('boom'), 'Unexpected error when running agent: boom', 'Agent run error'],
  ])('maps %o', (error, message, brief) => {
    expect(describeSubagentFailure(error)).toEqual({ message, brief });
  });

  it('looks through a cancellation to its cause', () => {
    const cancelled = new RunCancelled();
    cancelled.cause = new MaxStepsReached(3);
    expect(describeSubagentFailure(cancelled).brief).toBe('Max steps reached');
    expect(isCancellation(cancelled)).toBe(true);
    expect(isCancellation(new Error('x'))).toBe(false);
  });

  it('words the timeout with the seconds', () => {
    expect(timeoutFailure(45)).toEqual({
      message: 'Agent timed out after 45s.',
      brief: 'Agent timed out (45s)',
    });
  });
});
