/** An open turn or step: its record's index (in the model's turns or steps) and its timeline span. */
export interface OpenSpan {
  index: number;
  span: number;
}

/** A step being read: its model call (until its usage arrives or the step ends) and latest output. */
export interface OpenStep extends OpenSpan {
  /** The model call of the current attempt, or null once it is over. */
  model: number | null;
  /** The last time the model streamed something in the current attempt. */
  lastOutput: number | null;
}

/**
 * Where a lane is while the events are read: between turns, in a turn between steps, or in a step.
 * A step cannot be open outside a turn, nor a model call outside a step.
 */
export type LanePhase =
  | { kind: 'idle' }
  | { kind: 'in-turn'; turn: OpenSpan }
  | { kind: 'in-step'; turn: OpenSpan; step: OpenStep };

/** What is open on one lane (the main agent, or one subagent) while the events are read. */
export interface LaneState {
  lane: number;
  phase: LanePhase;
  turnCount: number;
  tools: Map<string, number>;
  /** Approval and question spans, by request id and by the tool call that asked. */
  waits: Map<string, number>;
  waitsByToolCall: Map<string, number>;
  dmailCalls: Set<string>;
  compaction: number | null;
  /** The span on the parent lane that covers this subagent's life. */
  lifeSpan: number | null;
}

export function newLaneState(lane: number): LaneState {
  return {
    lane,
    phase: { kind: 'idle' },
    turnCount: 0,
    tools: new Map(),
    waits: new Map(),
    waitsByToolCall: new Map(),
    dmailCalls: new Set(),
    compaction: null,
    lifeSpan: null,
  };
}

/** The open step of the lane, if it is in one. */
export function openStepOf(lane: LaneState): OpenStep | null {
  return lane.phase.kind === 'in-step' ? lane.phase.step : null;
}

/** The model streamed something: the end of the current attempt's call, when a step is open. */
export function noteOutput(lane: LaneState, time: number): void {
  const step = openStepOf(lane);
  if (step) step.lastOutput = time;
}
