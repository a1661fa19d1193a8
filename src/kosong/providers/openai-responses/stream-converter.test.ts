import { describe, expect, it } from 'vitest';
import { ChatProviderError } from '../../errors.js';
import { copyPart, mergeInPlace } from '../../merge.js';
import type { StreamedPart } from '../../message.js';
import { ResponsesStreamConverter, toTokenUsage } from './stream-converter.js';
import { ev, type ResponsesEventBody } from './test-support/responses-sse.js';

function convert(events: ResponsesEventBody[]): {
  parts: StreamedPart[];
  converter: ResponsesStreamConverter;
} {
  const converter = new ResponsesStreamConverter();
  const parts = events
    .flatMap((event, index) => converter.handle({ ...event, sequence_number: index }))
    // The "arguments done" signals are tested in ../done-signals.test.ts.
    .filter((part): part is StreamedPart => part.type !== 'tool_call_end');
  return { parts, converter };
}

/** What kosong's `generate` makes of the parts: each pending part absorbs what merges into it. */
function assemble(parts: readonly StreamedPart[]): StreamedPart[] {
  const out: StreamedPart[] = [];
  for (const part of parts) {
    const last = out.at(-1);
    if (!last || !mergeInPlace(last, copyPart(part))) out.push(copyPart(part));
  }
  return out;
}

const call = (id: string, args: string | null) => ({
  type: 'function',
  id,
  function: { name: 'Shell', arguments: args },
});

describe('ResponsesStreamConverter', () => {
  it('keeps argument deltas with their call when two calls interleave', () => {
    const { parts } = convert([
      ev.callAdded(0, 'call_a', 'Shell'),
      ev.callAdded(1, 'call_b', 'Shell'),
      ev.argsDelta(1, '{"command":'),
      ev.argsDelta(0, '{"command":'),
      ev.argsDelta(1, '"pwd"}'),
      ev.argsDelta(0, '"ls"}'),
      ev.callDone(0, 'call_a', 'Shell', '{"command":"ls"}'),
      ev.callDone(1, 'call_b', 'Shell', '{"command":"pwd"}'),
      ev.completed(),
    ]);
    expect(assemble(parts)).toEqual([
      call('call_a', '{"command":"ls"}'),
      call('call_b', '{"command":"pwd"}'),
    ]);
  });

  it('takes arguments that arrive only with the finished item', () => {
    const { parts } = convert([
      ev.callAdded(0, 'call_a', 'Shell'),
      ev.callDone(0, 'call_a', 'Shell', '{"command":"ls"}'),
      ev.callDone(1, 'call_b', 'Shell', '{"command":"pwd"}'), // never announced
      ev.completed(),
    ]);
    expect(assemble(parts)).toEqual([
      call('call_a', '{"command":"ls"}'),
      call('call_b', '{"command":"pwd"}'),
    ]);
  });

  it('completes the stream-order gap when the final arguments extend what was streamed', () => {
    const { parts } = convert([
      ev.callAdded(0, 'call_a', 'Shell'),
      ev.argsDelta(0, '{"comm'),
      ev.argsDone(0, '{"command":"ls"}'),
      ev.callDone(0, 'call_a', 'Shell', '{"command":"ls"}'),
      ev.completed(),
    ]);
    expect(parts.filter((part) => part.type === 'tool_call_part')).toEqual([
      { type: 'tool_call_part', arguments_part: '{"comm' },
      { type: 'tool_call_part', arguments_part: 'and":"ls"}' },
    ]);
  });

  it('seals reasoning whose summary came only with the finished item', () => {
    const { parts } = convert([
      ev.reasoningDone(0, ['One.', 'Two.'], 'enc'),
      ev.reasoningDone(1, ['Plain.'], null),
    ]);
    expect(parts).toEqual([
      { type: 'think', think: 'One.\n\nTwo.', encrypted: 'enc' },
      { type: 'think', think: 'Plain.' },
    ]);
  });

  it('ignores event types it does not act on and finishes on response.incomplete', () => {
    const { parts, converter } = convert([
      ev.created('resp_x'),
      { type: 'response.in_progress', response: { id: 'resp_x' } },
      { type: 'response.content_part.added', item_id: 'msg_0', part: { type: 'output_text', text: '' } },
      ev.textDelta(0, 'partial'),
      {
        type: 'response.incomplete',
        response: { id: 'resp_x', usage: { input_tokens: 3, output_tokens: 2 } },
      },
    ]);
    expect(parts).toEqual([{ type: 'text', text: 'partial' }]);
    expect(converter.isFinished).toBe(true);
    expect(converter.id).toBe('resp_x');
    expect(converter.usage).toEqual({
      input_other: 3,
      output: 2,
      input_cache_read: 0,
      input_cache_creation: 0,
    });
  });

  it('throws a provider error for a malformed event it acts on', () => {
    expect(() => convert([{ type: 'response.function_call_arguments.delta', item_id: 'fc_0' }])).toThrow(
      ChatProviderError,
    );
  });

  it('counts cached and cache-written tokens apart from the other input', () => {
    expect(
      toTokenUsage({
        input_tokens: 1000,
        output_tokens: 50,
        input_tokens_details: { cached_tokens: 600, cache_write_tokens: 300 },
      }),
    ).toEqual({ input_other: 100, output: 50, input_cache_read: 600, input_cache_creation: 300 });
  });
});
