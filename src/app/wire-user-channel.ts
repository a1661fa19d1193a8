import { randomUUID } from 'node:crypto';
import type { QuestionOutcome, UserChannel } from '../tools/user-channel.js';
import { runContextOr, sendOn } from '../toolset/run-scope.js';
import { wireEvent } from '../wire/events.js';
import { type QuestionAnswers, QuestionRequest } from '../wire/requests.js';

/**
 * The user as the tools see them, reached over the Wire of the asking call's run: a question is a QuestionRequest a
 * front end answers, a plan a PlanDisplay event. Outside a soul run there is nobody to ask.
 */
export const wireUserChannel: UserChannel = {
  async ask(questions, { toolCallId, signal, run }): Promise<QuestionOutcome> {
    const { wire, approvalSource: source } = runContextOr(run);
    if (wire === null) return { status: 'no_user_interface' };
    signal.throwIfAborted();
    // A subagent's question says which agent asks, as its approvals do (the main agent's says nothing).
    const asker = source?.agent_id
      ? {
          agent_id: source.agent_id,
          subagent_type: source.subagent_type ?? null,
          source_description: source.description ?? null,
          parent_tool_call_id: source.parent_tool_call_id ?? null,
        }
      : {};
    const request = new QuestionRequest({ id: randomUUID(), tool_call_id: toolCallId, questions, ...asker });
    wire.send(request);
    let answers: QuestionAnswers;
    try {
      answers = await request.wait(signal);
    } catch (error) {
      request.cancel('The tool call was cancelled.');
      throw error;
    }
    const state = request.state;
    if (state.status === 'cancelled' && isUnsupportedReason(state.reason)) return { status: 'unsupported' };
    return Object.keys(answers).length === 0 ? { status: 'dismissed' } : { status: 'answered', answers };
  },
  showPlan({ content, filePath, run }) {
    sendOn(runContextOr(run).wire, wireEvent('PlanDisplay', { content, file_path: filePath }));
  },
};

/**
 * Whether a cancelled question was cancelled because the client cannot answer questions. The wire
 * server cancels such requests with a reason saying the client does not support questions.
 */
function isUnsupportedReason(reason: string): boolean {
  return /\b(not support|unsupported)/i.test(reason);
}
