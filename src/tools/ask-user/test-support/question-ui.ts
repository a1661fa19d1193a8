import type { ToolCall, ToolResult } from '../../../kosong/index.js';
import { runSoul, type UILoop } from '../../../soul/run-soul.js';
import type { KimiToolset } from '../../../toolset/kimi-toolset.js';
import { cleanDispatch, dispatchAll } from '../../../toolset/test-support/dispatch.js';
import type { WireMessage } from '../../../wire/message.js';
import { type QuestionAnswers, QuestionRequest } from '../../../wire/requests.js';

/** What the test's user does with a question: answer it, cancel it with a reason, or leave it open. */
export type QuestionReaction =
  | { kind: 'answer'; answers: QuestionAnswers }
  | { kind: 'cancel'; reason: string }
  | { kind: 'leave-open' };

export const answer = (answers: QuestionAnswers): QuestionReaction => ({ kind: 'answer', answers });
export const cancelWith = (reason: string): QuestionReaction => ({ kind: 'cancel', reason });
export const leaveOpen: QuestionReaction = { kind: 'leave-open' };

/**
 * A front end for `runSoul` that records every merged message and reacts to each QuestionRequest
 * the way `react` says, like a real UI answering over the Wire.
 */
export function questionUI(react: (request: QuestionRequest) => QuestionReaction): {
  ui: UILoop;
  seen: WireMessage[];
  questions: QuestionRequest[];
} {
  const seen: WireMessage[] = [];
  const questions: QuestionRequest[] = [];
  const ui: UILoop = async (wire) => {
    for await (const message of wire.subscribe({ merge: true })) {
      seen.push(message);
      if (!(message instanceof QuestionRequest)) continue;
      questions.push(message);
      const reaction = react(message);
      if (reaction.kind === 'answer') message.resolve(reaction.answers);
      else if (reaction.kind === 'cancel') message.cancel(reaction.reason);
    }
  };
  return { ui, seen, questions };
}

/** Dispatches tool calls inside a soul run (so the tools have a current wire) and returns their results. */
export async function runToolsInSoul(
  toolset: KimiToolset,
  calls: ToolCall[],
  ui: UILoop,
  cancel: AbortSignal = new AbortController().signal,
): Promise<{ results: ToolResult[]; error: unknown }> {
  let results: ToolResult[] = [];
  let error: unknown;
  try {
    await runSoul(
      async (signal) => {
        results = await dispatchAll(toolset, calls, cleanDispatch(signal));
      },
      ui,
      cancel,
    );
  } catch (caught) {
    error = caught;
  }
  return { results, error };
}

/** The channel the app gives tools: questions and plans over the current wire, as in a session. */
export { wireUserChannel } from '../../../app/wire-user-channel.js';
