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
  | 'setSwarmDispatch'
  | 'models'
  | 'config'
>;

/** What a worker needs of a session to run one item of a swarm another worker's turn handed out. */
export type SwarmItemSession = Pick<
  AgentSessionImpl,
  'setWriteFence' | 'runSwarmItem' | 'close' | 'models' | 'config'
>;
