import { describe, expect, it } from 'vitest';
import {
  AnswerTooLongError,
  answerCharLimit,
  MAX_ANSWER_CHARS,
  MAX_ANSWER_TOOL_CALLS,
  TEST_MAX_ANSWER_CHARS_ENV,
  TooManyToolCallsError,
} from './answer-limit.js';
import { generate } from './generate.js';
import type { Message, StreamedPart, ToolCall } from './message.js';
import type { ChatProvider, StreamedMessage } from './provider.js';

/** A provider that streams `first`, then `repeat` forever; it records whether its stream was closed. */
function endlessProvider(first: StreamedPart[], repeat: StreamedPart) {
  const state = { yielded: 0, closed: false };
  const provider: ChatProvider = {
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
          try {
            for (const part of first) yield structuredClone(part);
            for (;;) {
              state.yielded++;
              yield structuredClone(repeat);
            }
          } finally {
            state.closed = true;
          }
        },
      };
    },
  };
  return { provider, state };
}

describe('the answer cap', () => {
  it('stops endless text at the cap, keeping the text that came, and closes the stream', async () => {
    const { provider, state } = endlessProvider([], { type: 'text', text: 'x'.repeat(100) });
    const message: Message = { role: 'assistant', content: [] };
    const error = await generate(provider, '', [], [], { message, maxAnswerChars: 1000 }).catch((e) => e);
    expect(error).toBeInstanceOf(AnswerTooLongError);
    expect((error as Error).message).toBe("the model's answer passed 1000 characters; stopped");
    expect(state.yielded).toBe(11);
    expect(state.closed).toBe(true);
    // The fragment that crossed the cap is not kept: what is kept stays within it.
    expect(message.content).toEqual([{ type: 'text', text: 'x'.repeat(1000) }]);
  });

  it('stops endless tool-call arguments; a call dispatched before stays dispatched', async () => {
    const dispatched: ToolCall[] = [];
    const { provider, state } = endlessProvider(
      [
        { type: 'function', id: 'a', function: { name: 'T', arguments: '{}' } },
        { type: 'function', id: 'b', function: { name: 'T', arguments: '{"x":"' } },
      ],
      { type: 'tool_call_part', arguments_part: 'y'.repeat(100) },
    );
    const error = await generate(provider, '', [], [], {
      maxAnswerChars: 1000,
      onToolCall: (call) => dispatched.push(call),
    }).catch((e) => e);
    expect(error).toBeInstanceOf(AnswerTooLongError);
    expect(state.closed).toBe(true);
    expect(dispatched.map((call) => call.id)).toEqual(['a']);
  });

  it('counts whitespace sent after a closed call too (dropped, but still streamed)', async () => {
    const { provider } = endlessProvider(
      [{ type: 'function', id: 'a', function: { name: 'T', arguments: '{}' } }],
      { type: 'tool_call_part', arguments_part: ' '.repeat(100) },
    );
    await expect(generate(provider, '', [], [], { maxAnswerChars: 1000 })).rejects.toBeInstanceOf(
      AnswerTooLongError,
    );
  });

  it.each([
    [undefined, MAX_ANSWER_CHARS],
    ['5000', 5000],
    ['0', MAX_ANSWER_CHARS],
    ['-1', MAX_ANSWER_CHARS],
    ['abc', MAX_ANSWER_CHARS],
    [String(MAX_ANSWER_CHARS * 2), MAX_ANSWER_CHARS],
  ])('%s in the test-only variable: a cap of %i (it only ever lowers the cap)', (value, cap) => {
    expect(answerCharLimit({ [TEST_MAX_ANSWER_CHARS_ENV]: value })).toBe(cap);
  });
});

it('a stream of tool calls without end is given up before more than the cap of them run', async () => {
  let dispatched = 0;
  const { provider, state } = endlessProvider([], {
    type: 'function',
    id: 'c',
    function: { name: 'Shell', arguments: '{}' },
  });
  const answer = generate(provider, 's', [], [], { onToolCall: () => dispatched++ });
  await expect(answer).rejects.toThrow(TooManyToolCallsError);
  expect(dispatched).toBeLessThanOrEqual(MAX_ANSWER_TOOL_CALLS);
  expect(state.closed).toBe(true);
});
