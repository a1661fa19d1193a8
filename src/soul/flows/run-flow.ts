import { extractText, type Message } from '../../kosong/message.js';
import { wireEvent } from '../../wire/events.js';
import type { WireMessage } from '../../wire/message.js';
import type { UserInput } from '../steer-queue.js';
import type { TurnOutcome } from '../turn-outcome.js';
import type { Flow, FlowEdge } from './flow.js';

/** Turns a flow may take before it is stopped (Kimi CLI's cap against endless loops). */
export const MAX_FLOW_MOVES = 1000;

/** How a flow run ended: at END, at a node with no way on, on a rejected tool call, or out of moves. */
export type FlowEnd = 'end' | 'dead_end' | 'tool_rejected' | 'max_moves';

export interface FlowRun {
  end: FlowEnd;
  /** The last turn's outcome (null when no node ran), its step count the sum of all turns'. */
  outcome: TurnOutcome | null;
  moves: number;
}

/**
 * Walks a flow from BEGIN: every node on the way is a turn of its own (TurnBegin/TurnEnd inside the
 * caller's turn); after a decision the model's `<choice>` picks the edge, and an answer that picks
 * none is asked again with a reminder of the format.
 */
export async function runFlow(
  flow: Flow,
  runTurn: (input: UserInput) => Promise<TurnOutcome>,
  /** Sends on the wire of the caller's run (each node's TurnBegin/TurnEnd). */
  send: (message: WireMessage) => void,
  maxMoves = MAX_FLOW_MOVES,
): Promise<FlowRun> {
  let current = flow.outgoing.get(flow.beginId)![0]!.to;
  let moves = 0;
  let steps = 0;
  let outcome: TurnOutcome | null = null;
  let reminded = false;
  const finish = (end: FlowEnd): FlowRun => ({
    end,
    outcome: outcome && { ...outcome, stepCount: steps },
    moves,
  });
  while (current !== flow.endId) {
    if (moves >= maxMoves) return finish('max_moves');
    const node = flow.nodes.get(current)!;
    const edges = flow.outgoing.get(current) ?? [];
    const prompt = node.kind === 'decision' ? decisionPrompt(node.label, edges, reminded) : node.label;
    outcome = await innerTurn(prompt, runTurn, send);
    moves++;
    steps += outcome.stepCount;
    if (outcome.stopReason === 'tool_rejected') return finish('tool_rejected');
    if (node.kind === 'decision') {
      const edge = chosenEdge(edges, outcome.finalMessage);
      reminded = edge === null;
      if (edge) current = edge.to;
    } else if (edges.length === 0) {
      return finish('dead_end');
    } else {
      current = edges[0]!.to;
    }
  }
  return finish('end');
}

/** A decision's prompt: its text, the branches (edge labels) and how to choose. */
export function decisionPrompt(label: UserInput, edges: readonly FlowEdge[], remind = false): string {
  const text = typeof label === 'string' ? label : extractText({ content: label }, '\n');
  const lines = [
    text,
    '',
    'Available branches:',
    ...edges.map((edge) => `- ${edge.label}`),
    '',
    'Reply with a choice using <choice>...</choice>.',
  ];
  if (remind) {
    lines.push(
      '',
      'Your last reply chose none of these branches: end it with exactly one <choice>BRANCH</choice>.',
    );
  }
  return lines.join('\n');
}

/** The edge the answer's last `<choice>` names (exactly, or else ignoring case); null for none. */
export function chosenEdge(edges: readonly FlowEdge[], answer: Message | null): FlowEdge | null {
  if (!answer) return null;
  const choices = [...extractText(answer, '\n').matchAll(/<choice>([^<]*)<\/choice>/g)];
  const choice = choices.at(-1)?.[1]?.trim();
  if (choice === undefined) return null;
  return (
    edges.find((edge) => edge.label?.trim() === choice) ??
    edges.find((edge) => edge.label?.trim().toLowerCase() === choice.toLowerCase()) ??
    null
  );
}

async function innerTurn(
  input: UserInput,
  runTurn: (input: UserInput) => Promise<TurnOutcome>,
  send: (message: WireMessage) => void,
) {
  send(wireEvent('TurnBegin', { user_input: input }));
  try {
    return await runTurn(input);
  } finally {
    send(wireEvent('TurnEnd', {}));
  }
}
