import { randomUUID } from 'node:crypto';
import type { ToolCallContext } from '../../toolset/tool-definition.js';
import { currentWire, wireSend } from '../../wire/current-wire.js';
import { type QuestionAnswers, type QuestionItem, QuestionRequest } from '../../wire/requests.js';

/** How asking the user ended. */
export type QuestionOutcome =
  | { status: 'answered'; answers: QuestionAnswers }
  /** The user closed the question without choosing (or the request ended unanswered). */
  | { status: 'dismissed' }
  /** The connected client cannot show questions (a wire client without `supports_question`). */
  | { status: 'unsupported' }
  /** Not running inside a soul run: there is nobody to ask. */
  | { status: 'no_wire' };

/**
 * A question item with the fields a tool usually leaves empty filled in (no body, the UI's default
 * "Other" choice).
 */
export function questionItem(
  item: Pick<QuestionItem, 'question' | 'options'> & Partial<QuestionItem>,
): QuestionItem {
  return {
    header: '',
    multi_select: false,
    body: '',
    other_label: '',
    other_description: '',
    ...item,
  };
}

/**
 * Sends a QuestionRequest on the current wire and waits for the answer. If the tool call is
 * cancelled first, the request is cancelled too (so no front end keeps showing it) and the abort
 * reason is thrown.
 */
export async function askUser(questions: QuestionItem[], ctx: ToolCallContext): Promise<QuestionOutcome> {
  if (currentWire() === null) return { status: 'no_wire' };
  ctx.signal.throwIfAborted();
  const request = new QuestionRequest({ id: randomUUID(), tool_call_id: ctx.toolCall.id, questions });
  wireSend(request);
  let answers: QuestionAnswers;
  try {
    answers = await request.wait(ctx.signal);
  } catch (error) {
    request.cancel('The tool call was cancelled.');
    throw error;
  }
  const state = request.state;
  if (state.status === 'cancelled' && isUnsupportedReason(state.reason)) return { status: 'unsupported' };
  return Object.keys(answers).length === 0 ? { status: 'dismissed' } : { status: 'answered', answers };
}

/**
 * Whether a cancelled question was cancelled because the client cannot answer questions. The wire
 * server cancels such requests with a reason saying the client does not support questions.
 */
export function isUnsupportedReason(reason: string): boolean {
  return /\b(not support|unsupported)/i.test(reason);
}

/** The answer a question with this text received (single-question prompts). */
export function answerTo(answers: QuestionAnswers, question: string): string | undefined {
  return answers[question] ?? Object.values(answers)[0];
}
