import { describe, expect, it } from 'vitest';
import { APIConnectionError, APIEmptyResponseError } from './errors.js';
import { generate } from './generate.js';
import type { Message, StreamedPart, ToolCall } from './message.js';
import type { ChatProvider, StreamedMessage } from './provider.js';

/** A provider that streams fixed parts, then optionally fails: enough to test the merge loop. */
function partsProvider(parts: StreamedPart[], failAfter?: Error): ChatProvider {
  return {
    name: 'parts',
    modelName: 'parts',
    thinkingEffort: null,
    withThinking() {
      return this;
    },
    async generate(): Promise<StreamedMessage> {
      return {
        id: 'msg-1',
        usage: { input_other: 3, output: 2, input_cache_read: 0, input_cache_creation: 0 },
        async *[Symbol.asyncIterator]() {
          for (const part of parts) yield structuredClone(part);
          if (failAfter) throw failAfter;
        },
      };
    },
  };
}

const text = (t: string): StreamedPart => ({ type: 'text', text: t });
const think = (t: string, encrypted?: string): StreamedPart => ({
  type: 'think',
  think: t,
  ...(encrypted ? { encrypted } : {}),
});
const call = (id: string, name: string, args: string | null = ''): StreamedPart => ({
  type: 'function',
  id,
  function: { name, arguments: args },
});
const frag = (s: string): StreamedPart => ({ type: 'tool_call_part', arguments_part: s });

describe('generate', () => {
  it('merges fragments into complete parts and fires each tool call as soon as it completes', async () => {
    const events: string[] = [];
    const raw: StreamedPart[] = [];
    const parts = [
      think('a'),
      think('b'),
      text('Hel'),
      text('lo'),
      call('1', 'A', '{"x"'),
      frag(':1}'),
      call('2', 'B'),
      frag('{}'),
      text('!'),
    ];
    const provider = partsProvider(parts);
    const wrapped: ChatProvider = {
      ...provider,
      async generate(req) {
        const inner = await provider.generate(req);
        return {
          id: inner.id,
          usage: inner.usage,
          async *[Symbol.asyncIterator]() {
            for await (const p of inner) {
              events.push(`part:${p.type}`);
              yield p;
            }
          },
        };
      },
    };
    const result = await generate(wrapped, 'sys', [], [], {
      onMessagePart: (p) => raw.push(p),
      onToolCall: (c: ToolCall) => events.push(`call:${c.id}:${c.function.arguments}`),
    });
    expect(result.message).toEqual({
      role: 'assistant',
      content: [think('ab'), text('Hello'), text('!')],
      tool_calls: [call('1', 'A', '{"x":1}'), call('2', 'B', '{}')],
    });
    expect(result.id).toBe('msg-1');
    expect(result.usage?.output).toBe(2);
    expect(raw).toEqual(parts);
    // Each call is dispatched the moment its arguments close, mid-stream, before the next part.
    expect(events).toEqual([
      'part:think',
      'part:think',
      'part:text',
      'part:text',
      'part:function',
      'part:tool_call_part',
      'call:1:{"x":1}',
      'part:function',
      'part:tool_call_part',
      'call:2:{}',
      'part:text',
    ]);
  });

  it('dispatches a call whose arguments are not an object or array when the next part starts', async () => {
    const events: string[] = [];
    const parts = [call('1', 'A', '"x'), frag('"'), call('2', 'B', '{}'), frag('  '), text('!')];
    const result = await generate(partsProvider(parts), '', [], [], {
      onMessagePart: (p) => events.push(`part:${p.type}`),
      onToolCall: (c: ToolCall) => events.push(`call:${c.id}:${c.function.arguments}`),
    });
    expect(events).toEqual([
      'part:function',
      'part:tool_call_part',
      'part:function',
      'call:1:"x"',
      'call:2:{}',
      'part:tool_call_part',
      'part:text',
    ]);
    expect(result.message.tool_calls).toEqual([call('1', 'A', '"x"'), call('2', 'B', '{}')]);
  });

  it('refuses more arguments after a call closed its JSON value', async () => {
    const parts = [call('1', 'A', '{}'), frag(', "x": 1}')];
    await expect(generate(partsProvider(parts), '', [], [])).rejects.toThrow(
      /more arguments for tool call 1 \(A\) after its arguments had formed a complete JSON value/,
    );
  });

  it("keeps what arrived in the caller's message when the stream fails", async () => {
    const message: Message = { role: 'assistant', content: [] };
    const failing: ChatProvider = {
      ...partsProvider([]),
      async generate() {
        return {
          id: null,
          usage: null,
          async *[Symbol.asyncIterator]() {
            yield call('1', 'A', '{}');
            yield text('part');
            yield text('ial');
            yield call('2', 'B', '{"unfinished"');
            throw new Error('cut');
          },
        };
      },
    };
    await expect(generate(failing, '', [], [], { message })).rejects.toThrow('cut');
    expect(message).toEqual({
      role: 'assistant',
      content: [text('partial')],
      tool_calls: [call('1', 'A', '{}')],
    });
  });

  it('gives the raw callback copies, so changing them does not change the message', async () => {
    const result = await generate(partsProvider([text('a'), text('b')]), '', [], [], {
      onMessagePart: (p) => {
        if (p.type === 'text') p.text = 'mutated';
      },
    });
    expect(result.message.content).toEqual([text('ab')]);
  });

  it('drops argument fragments that have no tool call before them', async () => {
    const result = await generate(partsProvider([frag('{"orphan":1}'), text('ok')]), '', [], []);
    expect(result.message).toEqual({ role: 'assistant', content: [text('ok')] });
  });

  it.each<[string, StreamedPart[], RegExp]>([
    ['an empty stream', [], /empty response/],
    ['whitespace only', [text('  \n')], /empty response/],
    ['thinking only', [think('let me think')], /only thinking content/],
    ['signed thinking only', [think('x', 'sig'), text(' ')], /only thinking content/],
  ])('raises APIEmptyResponseError for %s', async (_name, parts, pattern) => {
    const promise = generate(partsProvider(parts), '', [], []);
    await expect(promise).rejects.toBeInstanceOf(APIEmptyResponseError);
    await expect(generate(partsProvider(parts), '', [], [])).rejects.toThrow(pattern);
  });

  it('accepts thinking followed by a tool call', async () => {
    const result = await generate(partsProvider([think('plan'), call('1', 'A', '{}')]), '', [], []);
    expect(result.message.tool_calls).toHaveLength(1);
  });

  it('propagates a stream error', async () => {
    await expect(
      generate(partsProvider([text('a')], new APIConnectionError('dropped')), '', [], []),
    ).rejects.toBeInstanceOf(APIConnectionError);
  });

  it('stops at once when the signal is already aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(
      generate(partsProvider([text('a')]), '', [], [], { signal: controller.signal }),
    ).rejects.toThrow();
  });
});
