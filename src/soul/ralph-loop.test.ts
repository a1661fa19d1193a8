import { describe, expect, it } from 'vitest';
import { message } from '../kosong/message.js';
import type { WireMessage } from '../wire/message.js';
import { Wire } from '../wire/wire.js';
import { MAX_FLOW_MOVES } from './flows/run-flow.js';
import { runRalphLoop as runLoop } from './ralph-loop.js';
import type { UserInput } from './steer-queue.js';
import type { StopReason, TurnOutcome } from './turn-outcome.js';

/** The loop sends TurnBegin/TurnEnd for each run: it runs inside a wire, as in a soul run. */
const wire = new Wire();
const send = (message: WireMessage): void => wire.send(message);
const runRalphLoop = runLoop;

/** A turn runner answering with `answers` in order (the last one again when they run out). */
function scripted(answers: (string | { reject: true })[]) {
  const prompts: UserInput[] = [];
  const runTurn = async (input: UserInput): Promise<TurnOutcome> => {
    prompts.push(input);
    const answer = answers[Math.min(prompts.length - 1, answers.length - 1)]!;
    const stopReason: StopReason = typeof answer === 'string' ? 'no_tool_calls' : 'tool_rejected';
    return {
      stopReason,
      finalMessage: typeof answer === 'string' ? message('assistant', answer) : null,
      stepCount: 1,
    };
  };
  return { prompts, runTurn };
}

const DECISION =
  'fix the tests. (You are running in an automated loop where the same prompt is fed repeatedly. Only choose STOP when the task is fully complete. Including it will stop further iterations. If you are not 100% sure, choose CONTINUE.)\n\nAvailable branches:\n- CONTINUE\n- STOP\n\nReply with a choice using <choice>...</choice>.';

describe('the Ralph loop', () => {
  it("runs the prompt, then Kimi CLI's decision prompt until the model chooses STOP", async () => {
    const { prompts, runTurn } = scripted([
      'Working.',
      'More <choice>CONTINUE</choice>',
      'Done <choice>STOP</choice>',
    ]);
    const outcome = await runRalphLoop('fix the tests', 5, runTurn, send);
    expect(prompts).toEqual(['fix the tests', DECISION, DECISION]);
    expect(outcome.stepCount).toBe(3);
    expect(outcome.finalMessage).toEqual(message('assistant', 'Done <choice>STOP</choice>'));
  });

  it('stops after the extra runs, on a rejected tool call, and reminds the model when it chose nothing', async () => {
    expect(
      (await runRalphLoop('x', 2, scripted(['a', '<choice>CONTINUE</choice>']).runTurn, send)).stepCount,
    ).toBe(3);
    const rejected = scripted(['a', { reject: true }, 'never']);
    await runRalphLoop('x', 5, rejected.runTurn, send);
    expect(rejected.prompts).toHaveLength(2);
    const unsure = scripted(['a', 'no choice at all', '<choice>maybe</choice>', '<choice>stop</choice>']);
    await runRalphLoop('x', 10, unsure.runTurn, send);
    expect(unsure.prompts).toHaveLength(4);
    expect(String(unsure.prompts[2])).toContain('Your last reply chose none of these branches');
  });

  it('without a limit (-1) goes on until STOP, never past the move cap', async () => {
    const endless = scripted(['a', '<choice>CONTINUE</choice>']);
    const outcome = await runRalphLoop('x', -1, endless.runTurn, send);
    expect(endless.prompts).toHaveLength(MAX_FLOW_MOVES);
    expect(outcome.stepCount).toBe(MAX_FLOW_MOVES);
  });
});
