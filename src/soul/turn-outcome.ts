import type { Message } from '../kosong/message.js';

/** Why a turn ended normally (seed 002 §4.4). */
export type StopReason = 'no_tool_calls' | 'tool_rejected' | 'tool_call_repeat';

/** What a step decides: stop the turn with a reason, or (null) run another step. */
export interface StepOutcome {
  stopReason: StopReason;
  /** The last assistant message, for `no_tool_calls`. */
  finalMessage: Message | null;
}

export interface TurnOutcome extends StepOutcome {
  stepCount: number;
}
