import { randomUUID } from 'node:crypto';
import { generate } from '../kosong/generate.js';
import { extractText, type Message } from '../kosong/message.js';
import { systemText } from '../toolset/tool-result-message.js';
import { wireEvent } from '../wire/events.js';
import { withAuthRecovery, withRetry } from './retry.js';
import type { SlashCommandOf } from './slash-command-types.js';
import type { Soul } from './soul.js';
import type { SoulParts } from './soul-parts.js';

/** Model calls a side question may take: a first answer, and one more if it tried to use tools. */
const MAX_SIDE_STEPS = 2;

const NO_TOOLS = 'Tools cannot be used for a side question: answer from what the conversation already shows.';

/**
 * `/btw <question>` (Kimi CLI's side question): the model answers from the conversation so far,
 * with the same system prompt and tools on offer, but any tool call is refused and nothing is added
 * to the context. The answer comes as BtwEnd (after BtwBegin); at most two model calls.
 */
export const sideQuestionCommand: SlashCommandOf<Soul> = {
  name: 'btw',
  description: 'Ask a side question about the conversation without adding to it: /btw QUESTION',
  aliases: [],
  async run({ soul, args, signal }) {
    const question = args.trim();
    const id = randomUUID();
    soul.send(wireEvent('BtwBegin', { id, question }));
    if (!question) {
      soul.send(wireEvent('BtwEnd', { id, error: 'Usage: /btw QUESTION' }));
      return;
    }
    try {
      const response = await answerAside(soul.parts, question, signal);
      soul.send(wireEvent('BtwEnd', { id, response }));
    } catch (error) {
      if (signal.aborted) throw error;
      soul.send(wireEvent('BtwEnd', { id, error: error instanceof Error ? error.message : String(error) }));
    }
  },
};

async function answerAside(parts: SoulParts, question: string, signal: AbortSignal): Promise<string> {
  const { llm, context, toolset, loopControl } = parts;
  if (!llm) throw new Error('No model is configured.');
  const history: Message[] = [
    ...context.history,
    { role: 'user', content: [{ type: 'text', text: question }] },
  ];
  for (let step = 1; ; step++) {
    const result = await withRetry(
      () =>
        withAuthRecovery(
          () =>
            generate(llm.provider, context.systemPrompt ?? parts.systemPrompt, toolset.tools, history, {
              signal,
            }),
          { refreshAuth: parts.refreshAuth },
        ),
      { maxAttempts: loopControl.maxRetriesPerStep, signal, sleep: parts.sleep, provider: llm.provider },
    );
    const calls = result.message.tool_calls ?? [];
    if (calls.length === 0 || step >= MAX_SIDE_STEPS) return extractText(result.message, '').trim();
    history.push(
      result.message,
      ...calls.map(
        (call): Message => ({
          role: 'tool',
          tool_call_id: call.id,
          content: [{ type: 'text', text: systemText(NO_TOOLS) }],
        }),
      ),
    );
  }
}
