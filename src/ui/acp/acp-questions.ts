import * as acp from '@agentclientprotocol/sdk';
import { revealInvisible, revealInvisibleOneLine } from '../../util/reveal-invisible.js';
import type { QuestionAnswers, QuestionItem, QuestionRequest } from '../../wire/requests.js';
import { acpAskingAgent } from './acp-asking-agent.js';

const SKIP_OPTION = 'skip';

/**
 * Asks an editor the questions of a QuestionRequest (entering plan mode, approving a plan) with
 * `session/request_permission`, one question after the other: each choice is a button, plus "Skip".
 * ACP has no other way to ask, and its buttons carry one choice each, so a question taking several
 * answers is refused as unsupported (the asking tool then tells the model the client cannot do it).
 */
export async function askQuestionsByPermission(
  request: QuestionRequest,
  sessionId: string,
  client: acp.AgentContext,
  signal: AbortSignal | undefined,
): Promise<void> {
  const { tool_call_id, questions } = request.payload;
  if (questions.some((item) => item.multi_select)) {
    request.cancel('Questions with several answers are not supported by this ACP client.');
    return;
  }
  const answers: QuestionAnswers = {};
  for (const item of questions) {
    if (!request.isPending) return;
    let outcome: acp.RequestPermissionOutcome;
    try {
      ({ outcome } = await client.request(
        acp.methods.client.session.requestPermission,
        {
          sessionId,
          toolCall: {
            toolCallId: tool_call_id,
            ...acpAskingAgent(
              request.payload,
              item.header ? `${item.header}: ${item.question}` : item.question,
            ),
            content: [{ type: 'content', content: { type: 'text', text: questionText(item) } }],
          },
          options: [
            ...item.options.map(
              (option, index): acp.PermissionOption => ({
                optionId: String(index),
                name: revealInvisibleOneLine(option.label),
                kind: isRefusal(option.label) ? 'reject_once' : 'allow_once',
              }),
            ),
            { optionId: SKIP_OPTION, name: 'Skip', kind: 'reject_once' },
          ],
        },
        { cancellationSignal: signal },
      ));
    } catch {
      // The editor failed to answer or went away: the question goes unanswered.
      break;
    }
    if (outcome.outcome !== 'selected' || outcome.optionId === SKIP_OPTION) continue;
    const chosen = item.options[Number(outcome.optionId)];
    if (chosen) answers[item.question] = chosen.label;
  }
  request.resolve(answers);
}

/**
 * The question's text and its choices with what each means (buttons show only the labels), revealed
 * as the permission content is (session-updates.ts): the model's text cannot reorder what the person
 * reads or scroll a choice away. Each choice stays on its line.
 */
function questionText(item: QuestionItem): string {
  const choices = item.options.map(
    (o) => `- ${revealInvisibleOneLine(`${o.label}${o.description ? ` — ${o.description}` : ''}`)}`,
  );
  return [revealInvisible(item.body), revealInvisible(item.question), choices.join('\n')]
    .filter((part) => part.trim() !== '')
    .join('\n\n');
}

/** Choices that say no (our plan tools' "No", "Reject", "Reject and exit") get the editor's reject look. */
function isRefusal(label: string): boolean {
  return /^(no|reject)\b/i.test(label.trim());
}
