import type { Message } from '../kosong/message.js';
import type { InterruptedStep } from '../kosong/step.js';
import { toolInterruptedError } from '../toolset/tool-errors.js';
import { toolResultToMessage } from '../toolset/tool-result-message.js';

/**
 * The messages that record a step the user interrupted: the assistant message as far as it had
 * arrived, with the calls it made, then one tool message per call — its result if it had finished,
 * else a result saying the user interrupted it. So the model knows what happened, and the history
 * stays valid for every provider (each tool message follows the assistant message that called it).
 * Nothing is recorded when the model had not said anything visible yet.
 */
export function interruptedStepMessages(step: InterruptedStep): Message[] {
  const { message, calls } = step;
  const saidSomething = message.content.some((part) => part.type !== 'think');
  if (!saidSomething && calls.length === 0) return [];
  const assistant: Message = {
    role: 'assistant',
    content: [...message.content],
    ...(calls.length > 0 ? { tool_calls: calls.map(({ call }) => call) } : {}),
  };
  return [
    assistant,
    ...calls.map(({ call, result }) =>
      toolResultToMessage(result ?? { tool_call_id: call.id, return_value: toolInterruptedError() }),
    ),
  ];
}
