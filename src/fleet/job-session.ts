import type { AgentSessionImpl } from '../app/agent-session-impl.js';

/** What a worker needs of a session to run a turn of it. */
export type FleetSession = Pick<
  AgentSessionImpl,
  | 'sessionId'
  | 'context'
  | 'setWriteFence'
  | 'runFleetTurn'
  | 'runGoalStep'
  | 'hasActiveGoal'
  | 'resumeTurn'
  | 'runScheduledTurn'
  | 'cronBook'
  | 'goalRunEnd'
  | 'close'
  | 'models'
  | 'config'
>;
