import { describe, expect, it } from 'vitest';
import { AnswerBudget, AnswerTooLongError } from '../answer-limit.js';
import { ChatChunkAssembler } from './openai-chat/chunk-assembler.js';
import { ResponsesStreamConverter } from './openai-responses/stream-converter.js';
import { ev } from './openai-responses/test-support/responses-sse.js';

/**
 * What a provider holds back before `generate` sees it (a part waiting while a call's arguments are
 * open, the arguments of a call announced while another streams) counts against the answer cap too:
 * a server could otherwise send an endless answer that `generate` never gets to count.
 */

/** Pushes `next(i)` until it throws (or `max` times); the error. */
function untilThrows(push: (i: number) => void, max = 10_000): unknown {
  for (let i = 0; i < max; i++) {
    try {
      push(i);
    } catch (error) {
      return error;
    }
  }
  return null;
}

describe('the answer cap inside the providers', () => {
  it('Chat Completions: endless text held back behind a call whose arguments never close', () => {
    const assembler = new ChatChunkAssembler('', new AnswerBudget(10_000));
    const chunk = (delta: Record<string, unknown>) => ({ choices: [{ index: 0, delta }] });
    assembler.push(
      chunk({ tool_calls: [{ index: 0, id: 'a', function: { name: 'Shell', arguments: '{"x":' } }] }),
    );
    const error = untilThrows(() => assembler.push(chunk({ content: 'y'.repeat(100) })));
    expect(error).toBeInstanceOf(AnswerTooLongError);
  });

  it('Chat Completions: endless arguments of a call that waits behind another', () => {
    const assembler = new ChatChunkAssembler('', new AnswerBudget(10_000));
    const chunk = (delta: Record<string, unknown>) => ({ choices: [{ index: 0, delta }] });
    assembler.push(
      chunk({ tool_calls: [{ index: 0, id: 'a', function: { name: 'Shell', arguments: '{"x":' } }] }),
    );
    assembler.push(
      chunk({ tool_calls: [{ index: 1, id: 'b', function: { name: 'Shell', arguments: '' } }] }),
    );
    const error = untilThrows(() =>
      assembler.push(chunk({ tool_calls: [{ index: 1, function: { arguments: 'z'.repeat(100) } }] })),
    );
    expect(error).toBeInstanceOf(AnswerTooLongError);
  });

  it('Responses: endless arguments of a call announced while another streams', () => {
    const converter = new ResponsesStreamConverter(null, undefined, new AnswerBudget(10_000));
    converter.handle({ ...ev.callAdded(0, 'call_a', 'Shell'), sequence_number: 0 });
    converter.handle({ ...ev.callAdded(1, 'call_b', 'Shell'), sequence_number: 1 });
    const error = untilThrows((i) =>
      converter.handle({ ...ev.argsDelta(1, 'z'.repeat(100)), sequence_number: i + 2 }),
    );
    expect(error).toBeInstanceOf(AnswerTooLongError);
  });

  it('Responses: endless calls announced while another streams', () => {
    const converter = new ResponsesStreamConverter(null, undefined, new AnswerBudget(10_000));
    converter.handle({ ...ev.callAdded(0, 'call_a', 'Shell'), sequence_number: 0 });
    const error = untilThrows((i) =>
      converter.handle({ ...ev.callAdded(i + 1, `call_${i}`, 'Shell'), sequence_number: i + 1 }),
    );
    expect(error).toBeInstanceOf(AnswerTooLongError);
  });
});
