import { expect, it } from 'vitest';
import { AnswerTooLongError, MAX_ANSWER_TOOL_CALLS, TooManyToolCallsError } from './answer-limit.js';
import { generate } from './generate.js';
import type { StreamedPart } from './message.js';
import type { ChatProvider, StreamedMessage } from './provider.js';

/** A provider whose answer is `count` parts made by `part` (a server that streams on and on). */
function endlessProvider(part: (i: number) => StreamedPart, count: number): ChatProvider {
  return {
    name: 'endless',
    modelName: 'endless',
    thinkingEffort: null,
    withThinking() {
      return this;
    },
    async generate(): Promise<StreamedMessage> {
      return {
        id: 'msg-1',
        usage: null,
        async *[Symbol.asyncIterator]() {
          for (let i = 0; i < count; i++) yield part(i);
        },
      };
    },
  };
}

const piece = 'x'.repeat(64 * 1024);

it('an answer of text past the cap is given up, not held whole', async () => {
  const answer = generate(
    endlessProvider(() => ({ type: 'text', text: piece }), 1_000_000),
    's',
    [],
    [],
    {
      maxAnswerChars: 64 * piece.length,
    },
  );
  await expect(answer.then(() => 'resolved')).rejects.toThrow(AnswerTooLongError);
});

it('a stream of tool calls without end is given up before any would run', async () => {
  let dispatched = 0;
  const answer = generate(
    endlessProvider(
      (i) => ({ type: 'function', id: `c${i}`, function: { name: 'Shell', arguments: '{}' } }),
      2_000_000,
    ),
    's',
    [],
    [],
    { onToolCall: () => dispatched++ },
  );
  await expect(answer.then(() => 'resolved')).rejects.toThrow(TooManyToolCallsError);
  expect(dispatched).toBeLessThanOrEqual(MAX_ANSWER_TOOL_CALLS);
});

it('an ordinary long answer is whole', async () => {
  const result = await generate(
    endlessProvider(() => ({ type: 'text', text: piece }), 16),
    's',
    [],
    [],
  );
  expect(result.message.content).toEqual([{ type: 'text', text: piece.repeat(16) }]);
});
