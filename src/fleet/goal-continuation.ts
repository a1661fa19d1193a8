import type { Redis } from 'ioredis';
import { submitTurn } from './submit-turn.js';
import type { TurnJob } from './turn-job.js';
import { takeNextTurnNumber } from './turn-numbers.js';

/** What a goal step's turn shows as its input (the model reads the goal's own reminder). */
export const GOAL_STEP_PROMPT = '(the goal goes on)';

/**
 * Queues the next step of the session's active goal as its next turn job, with the modes of the
 * turn that left it active: the step runs on whichever worker takes it, so a long goal holds a
 * worker only while a step runs. Returns the step's turn number.
 */
export async function queueGoalStep(redis: Redis, after: TurnJob): Promise<number> {
  const { fire: _fire, goalStep: _goalStep, ...modes } = after;
  const turn = await takeNextTurnNumber(redis, after.sessionId);
  await submitTurn(redis, { ...modes, turn, prompt: GOAL_STEP_PROMPT, goalStep: true });
  return turn;
}
