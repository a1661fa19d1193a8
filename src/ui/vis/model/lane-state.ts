/** What is open on one lane (the main agent, or one subagent) while the events are read. */
export interface LaneState {
  lane: number;
  turn: { index: number; span: number } | null;
  turnCount: number;
  step: { index: number; span: number } | null;
  /** The model call of the current step attempt, until its usage arrives or the step ends. */
  model: number | null;
  /** The last time the model streamed something in the current attempt. */
  lastOutput: number | null;
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
    turn: null,
    turnCount: 0,
    step: null,
    model: null,
    lastOutput: null,
    tools: new Map(),
    waits: new Map(),
    waitsByToolCall: new Map(),
    dmailCalls: new Set(),
    compaction: null,
    lifeSpan: null,
  };
}
