import type { ToolCallContext } from '../../toolset/tool-definition.js';
import type { QuestionOutcome, UserAnswers, UserChannel, UserQuestion } from '../user-channel.js';

/**
 * A question item with the fields a tool usually leaves empty filled in (no body, the UI's default
 * "Other" choice).
 */
export function questionItem(
  item: Pick<UserQuestion, 'question' | 'options'> & Partial<UserQuestion>,
): UserQuestion {
  return {
    header: '',
    multi_select: false,
    body: '',
    other_label: '',
    other_description: '',
    ...item,
  };
}

/** Asks the user through `channel` on behalf of the tool call `ctx`. */
export function askUser(
  channel: UserChannel,
  questions: UserQuestion[],
  ctx: ToolCallContext,
): Promise<QuestionOutcome> {
  return channel.ask(questions, { toolCallId: ctx.toolCall.id, signal: ctx.signal, run: ctx.run });
}

/** The answer a question with this text received (single-question prompts). */
export function answerTo(answers: UserAnswers, question: string): string | undefined {
  return answers[question] ?? Object.values(answers)[0];
}
