import { extractText, type Message } from '../kosong/message.js';
import { wireSend } from '../wire/current-wire.js';
import { wireEvent } from '../wire/events.js';
import type { UserInput } from './steer-queue.js';
import type { TurnOutcome } from './turn-outcome.js';

/** Turns a Ralph loop may take in all, whatever the limit (Kimi CLI's flow move cap). */
export const MAX_RALPH_MOVES = 1000;

const BRANCHES = ['CONTINUE', 'STOP'] as const;

/**
 * The decision prompt of the loop: the task again, then the branches to choose from (Kimi CLI's
 * wording, so models tuned on it behave the same).
 */
export function ralphPrompt(task: string): string {
  return [
    `${task}. (You are running in an automated loop where the same prompt is fed repeatedly. Only choose STOP when the task is fully complete. Including it will stop further iterations. If you are not 100% sure, choose CONTINUE.)`,
    '',
    'Available branches:',
    ...BRANCHES.map((branch) => `- ${branch}`),
    '',
    'Reply with a choice using <choice>...</choice>.',
  ].join('\n');
}

/** The branch the answer chose: the last `<choice>` naming one; null when none does. */
export function chosenBranch(answer: Message | null): (typeof BRANCHES)[number] | null {
  if (!answer) return null;
  let chosen: (typeof BRANCHES)[number] | null = null;
  for (const match of extractText(answer, '\n').matchAll(/<choice>\s*([^<]*?)\s*<\/choice>/gi)) {
    const label = (match[1] ?? '').toUpperCase();
    chosen = (BRANCHES as readonly string[]).includes(label) ? (label as (typeof BRANCHES)[number]) : chosen;
  }
  return chosen;
}

/**
 * The Ralph loop (`loop_control.max_ralph_iterations`, `--max-ralph-iterations`): the prompt runs
 * once, then the decision prompt is sent again and again until the model chooses STOP, the
 * `extraRuns` are used up (-1: no limit but MAX_RALPH_MOVES) or a tool call is rejected. Each run is
 * an inner turn with its own TurnBegin/TurnEnd inside the outer turn, as Kimi CLI sends them. An
 * answer without a valid choice gets the decision prompt again (it counts as a run).
 */
export async function runRalphLoop(
  input: UserInput,
  extraRuns: number,
  runTurn: (input: UserInput) => Promise<TurnOutcome>,
): Promise<TurnOutcome> {
  const task = typeof input === 'string' ? input : extractText({ content: input }, '\n');
  let outcome = await innerTurn(input, runTurn);
  let steps = outcome.stepCount;
  for (let run = 1; extraRuns < 0 || run <= extraRuns; run++) {
    if (outcome.stopReason === 'tool_rejected' || run >= MAX_RALPH_MOVES) break;
    outcome = await innerTurn(ralphPrompt(task), runTurn);
    steps += outcome.stepCount;
    if (chosenBranch(outcome.finalMessage) === 'STOP') break;
  }
  return { ...outcome, stepCount: steps };
}

async function innerTurn(input: UserInput, runTurn: (input: UserInput) => Promise<TurnOutcome>) {
  wireSend(wireEvent('TurnBegin', { user_input: input }));
  try {
    return await runTurn(input);
  } finally {
    wireSend(wireEvent('TurnEnd', {}));
  }
}
