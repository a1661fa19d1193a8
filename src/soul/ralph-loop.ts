import { extractText } from '../kosong/message.js';
import type { WireMessage } from '../wire/message.js';
import type { Flow, FlowEdge, FlowNode } from './flows/flow.js';
import { MAX_FLOW_MOVES, runFlow } from './flows/run-flow.js';
import type { UserInput } from './steer-queue.js';
import type { TurnOutcome } from './turn-outcome.js';

/** The question of the loop's decision (Kimi CLI's wording, so models tuned on it behave the same). */
export function ralphQuestion(task: string): string {
  return `${task}. (You are running in an automated loop where the same prompt is fed repeatedly. Only choose STOP when the task is fully complete. Including it will stop further iterations. If you are not 100% sure, choose CONTINUE.)`;
}

/**
 * The Ralph loop (`loop_control.max_ralph_iterations`, `--max-ralph-iterations`) as a flow:
 * BEGIN → the prompt → a decision that asks the prompt again with CONTINUE (back to itself) or STOP
 * (END). The decision runs at most `extraRuns` times (-1: until STOP, within the flow move cap); a
 * rejected tool call ends the loop too.
 */
export async function runRalphLoop(
  input: UserInput,
  extraRuns: number,
  runTurn: (input: UserInput) => Promise<TurnOutcome>,
  send: (message: WireMessage) => void,
): Promise<TurnOutcome> {
  const task = typeof input === 'string' ? input : extractText({ content: input }, '\n');
  const node = (id: string, label: UserInput, kind: FlowNode['kind']): [string, FlowNode] => [
    id,
    { id, label, kind },
  ];
  const edge = (from: string, to: string, label: string | null = null): FlowEdge => ({ from, to, label });
  const flow: Flow = {
    nodes: new Map([
      node('BEGIN', 'BEGIN', 'begin'),
      node('R1', input, 'task'),
      node('R2', ralphQuestion(task), 'decision'),
      node('END', 'END', 'end'),
    ]),
    outgoing: new Map([
      ['BEGIN', [edge('BEGIN', 'R1')]],
      ['R1', [edge('R1', 'R2')]],
      ['R2', [edge('R2', 'R2', 'CONTINUE'), edge('R2', 'END', 'STOP')]],
    ]),
    beginId: 'BEGIN',
    endId: 'END',
  };
  const run = await runFlow(flow, runTurn, send, extraRuns < 0 ? MAX_FLOW_MOVES : 1 + extraRuns);
  return run.outcome ?? { stopReason: 'no_tool_calls', finalMessage: null, stepCount: 0 };
}
