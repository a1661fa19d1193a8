import { describe, expect, it } from 'vitest';
import { message } from '../kosong/message.js';
import { runWithWire } from '../wire/current-wire.js';
import { Wire } from '../wire/wire.js';
import { chosenBranch, MAX_RALPH_MOVES, ralphPrompt, runRalphLoop as runLoop } from './ralph-loop.js';
import type { UserInput } from './steer-queue.js';
import type { StopReason, TurnOutcome } from './turn-outcome.js';

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

/** The loop sends TurnBegin/TurnEnd for each run: it runs inside a wire, as in a soul run. */
const runRalphLoop: typeof runLoop = (...args) => runWithWire(new Wire(), () => runLoop(...args));

describe('the Ralph loop', () => {
  it('runs the prompt, then the decision prompt until the model chooses STOP', async () => {
    const { prompts, runTurn } = scripted([
      'Working.',
      'More <choice>CONTINUE</choice>',
      'Done <choice>STOP</choice>',
    ]);
    const outcome = await runRalphLoop('fix the tests', 5, runTurn);
    expect(prompts).toEqual(['fix the tests', ralphPrompt('fix the tests'), ralphPrompt('fix the tests')]);
    expect(outcome.stepCount).toBe(3);
    expect(ralphPrompt('fix the tests')).toBe(
      'fix the tests. (You are running in an automated loop where the same prompt is fed repeatedly. Only choose STOP when the task is fully complete. Including it will stop further iterations. If you are not 100% sure, choose CONTINUE.)\n\nAvailable branches:\n- CONTINUE\n- STOP\n\nReply with a choice using <choice>...</choice>.',
    );
  });

  it('stops after the extra runs, on a rejected tool call, and asks again when no branch was chosen', async () => {
    expect((await runRalphLoop('x', 2, scripted(['a', '<choice>CONTINUE</choice>']).runTurn)).stepCount).toBe(
      3,
    );
    const rejected = scripted(['a', { reject: true }, 'never']);
    await runRalphLoop('x', 5, rejected.runTurn);
    expect(rejected.prompts).toHaveLength(2);
    const unsure = scripted(['a', 'no choice at all', '<choice>maybe</choice>', '<choice>stop</choice>']);
    await runRalphLoop('x', 10, unsure.runTurn);
    expect(unsure.prompts).toHaveLength(4);
  });

  it('without a limit (-1) goes on until STOP, never past the move cap', async () => {
    const endless = scripted(['a', '<choice>CONTINUE</choice>']);
    const outcome = await runRalphLoop('x', -1, endless.runTurn);
    expect(endless.prompts).toHaveLength(MAX_RALPH_MOVES);
    expect(outcome.stepCount).toBe(MAX_RALPH_MOVES);
  });

  it('takes the last valid choice of an answer', () => {
    expect(chosenBranch(message('assistant', '<choice>STOP</choice> then <choice>CONTINUE</choice>'))).toBe(
      'CONTINUE',
    );
    expect(chosenBranch(message('assistant', '<choice> stop </choice><choice>later</choice>'))).toBe('STOP');
    expect(chosenBranch(message('assistant', 'nothing'))).toBeNull();
    expect(chosenBranch(null)).toBeNull();
  });
});
