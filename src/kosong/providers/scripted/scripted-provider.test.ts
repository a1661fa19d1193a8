import { describe, expect, it } from 'vitest';
import {
  APIConnectionError,
  APIEmptyResponseError,
  APIStatusError,
  APITimeoutError,
  ChatProviderError,
} from '../../errors.js';
import { generate } from '../../generate.js';
import { message, type StreamedPart, type TextPart, type ToolCall } from '../../message.js';
import { ScriptedProvider } from './scripted-provider.js';
import { ScriptError } from './scripted-turn.js';

const history = [message('user', 'hello')];
const run = (provider: ScriptedProvider, options: Parameters<typeof generate>[4] = {}) =>
  generate(provider, 'system', [], history, options);

describe('ScriptedProvider through generate()', () => {
  it('streams text chunks that merge into one part, with the id and usage of the script', async () => {
    const provider = new ScriptedProvider([
      'id: s-1\nusage: input_other=18 output=3\ntext: Hello,\ntext:  world\nthink: hmm',
    ]);
    const fragments: StreamedPart[] = [];
    const result = await run(provider, { onMessagePart: (part) => fragments.push(part) });
    expect(fragments).toHaveLength(3);
    expect(result.id).toBe('s-1');
    expect(result.usage).toEqual({
      input_other: 18,
      output: 3,
      input_cache_read: 0,
      input_cache_creation: 0,
    });
    expect(result.message).toEqual({
      role: 'assistant',
      content: [
        { type: 'text', text: 'Hello, world' },
        { type: 'think', think: 'hmm' },
      ],
    });
    expect(provider.name).toBe('scripted');
    expect(provider.modelName).toBe('scripted');
  });

  it('assembles a tool call from its parts and hands it over while streaming', async () => {
    const provider = new ScriptedProvider([
      [
        'text: Reading.',
        'tool_call: {"id": "ReadFile:0", "name": "ReadFile", "arguments": "{\\"pa"}',
        'tool_call_part: th": "a.js"}',
        'tool_call: id=Glob:1 name=Glob arguments={"pattern":"*"}',
      ].join('\n'),
    ]);
    const seen: ToolCall[] = [];
    const result = await run(provider, { onToolCall: (call) => seen.push(structuredClone(call)) });
    expect(result.message.content).toEqual([{ type: 'text', text: 'Reading.' }]);
    expect(result.message.tool_calls).toEqual([
      { type: 'function', id: 'ReadFile:0', function: { name: 'ReadFile', arguments: '{"path": "a.js"}' } },
      { type: 'function', id: 'Glob:1', function: { name: 'Glob', arguments: '{"pattern":"*"}' } },
    ]);
    expect(seen.map((call) => call.id)).toEqual(['ReadFile:0', 'Glob:1']);
  });

  it('consumes one script per call regardless of the history, then reports exhaustion', async () => {
    const provider = new ScriptedProvider(['text: one', 'text: two']);
    expect(provider.remaining).toBe(2);
    expect((await run(provider)).message.content).toEqual([{ type: 'text', text: 'one' }]);
    expect((await run(provider)).message.content).toEqual([{ type: 'text', text: 'two' }]);
    expect(provider.remaining).toBe(0);
    const error = await run(provider).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ChatProviderError);
    expect((error as Error).message).toBe('Scripted provider exhausted at call 3.');
    provider.push('text: three');
    expect((await run(provider)).message.content).toEqual([{ type: 'text', text: 'three' }]);
  });

  it.each([
    ['error: 503 overloaded', APIStatusError, 'overloaded'],
    ['error: connection', APIConnectionError, 'Scripted connection failure.'],
    ['error: timeout took too long', APITimeoutError, 'took too long'],
  ])('raises %s from generate() as the typed error', async (script, type, text) => {
    const provider = new ScriptedProvider([script]);
    const error = await provider.generate({ systemPrompt: '', tools: [], history }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(type);
    expect((error as Error).message).toBe(text);
  });

  it('carries status, request id and retry-after on a scripted HTTP error', async () => {
    const provider = new ScriptedProvider([
      'error: {"status": 429, "retry_after_ms": 2000, "request_id": "req-9"}',
    ]);
    const error = (await run(provider).catch((e: unknown) => e)) as APIStatusError;
    expect(error).toBeInstanceOf(APIStatusError);
    expect([error.statusCode, error.requestId, error.retryAfterMs]).toEqual([429, 'req-9', 2000]);
  });

  it('streams the parts before an error, then fails the stream', async () => {
    const provider = new ScriptedProvider([
      'text: partial\ntool_call: id=c1 name=Shell\nerror: connection dropped',
    ]);
    const fragments: StreamedPart[] = [];
    const calls: ToolCall[] = [];
    const error = await run(provider, {
      onMessagePart: (part) => fragments.push(part),
      onToolCall: (call) => calls.push(call),
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(APIConnectionError);
    expect((error as Error).message).toBe('dropped');
    expect(fragments.map((part) => part.type)).toEqual(['text', 'function']);
    expect(calls.map((call) => call.id)).toEqual([]); // the pending tool call never completed
  });

  it('leaves the queue alone when the signal is already aborted', async () => {
    const provider = new ScriptedProvider(['text: kept']);
    const controller = new AbortController();
    controller.abort();
    await expect(run(provider, { signal: controller.signal })).rejects.toThrow(/abort/i);
    expect(provider.remaining).toBe(1);
  });

  it('stops streaming when aborted mid-stream', async () => {
    const provider = ScriptedProvider.fromParts([
      Array.from({ length: 10 }, (_, i) => ({ type: 'text', text: `${i}` })),
    ]);
    const controller = new AbortController();
    let seen = 0;
    const outcome = run(provider, {
      signal: controller.signal,
      onMessagePart: () => {
        seen += 1;
        if (seen === 3) controller.abort();
      },
    });
    await expect(outcome).rejects.toMatchObject({ name: 'AbortError' });
    expect(seen).toBe(3);
  });

  it('lets timers and I/O run during a long stream, so an abort from outside lands', async () => {
    const provider = ScriptedProvider.fromParts([
      Array.from({ length: 100_000 }, () => ({ type: 'text', text: 'x' })),
    ]);
    const controller = new AbortController();
    setImmediate(() => controller.abort());
    let seen = 0;
    await expect(
      run(provider, { signal: controller.signal, onMessagePart: () => seen++ }),
    ).rejects.toMatchObject({
      name: 'AbortError',
    });
    expect(seen).toBeGreaterThan(0);
    expect(seen).toBeLessThan(100_000);
  });

  it('pushes 100,000 fragments through generate() into one merged text', async () => {
    const provider = ScriptedProvider.fromParts([
      Array.from({ length: 100_000 }, () => ({ type: 'text', text: 'ab' })),
    ]);
    const result = await run(provider);
    expect((result.message.content[0] as TextPart).text).toHaveLength(200_000);
  });

  it('builds turns from parts without mutating them; an empty list is an empty answer', async () => {
    const first: StreamedPart = { type: 'text', text: 'a' };
    const provider = ScriptedProvider.fromParts([[first, { type: 'text', text: 'b' }], []]);
    expect((await run(provider)).message.content).toEqual([{ type: 'text', text: 'ab' }]);
    expect(first).toEqual({ type: 'text', text: 'a' });
    await expect(run(provider)).rejects.toBeInstanceOf(APIEmptyResponseError);
  });

  it('gives withThinking copies their own copy of the remaining queue', async () => {
    const provider = new ScriptedProvider(['text: one', 'text: two', 'text: three']);
    await run(provider);
    const thinking = provider.withThinking('high');
    expect(thinking.thinkingEffort).toBe('high');
    expect(provider.thinkingEffort).toBeNull();
    expect((await run(thinking)).message.content).toEqual([{ type: 'text', text: 'two' }]);
    expect((await run(thinking)).message.content).toEqual([{ type: 'text', text: 'three' }]);
    expect(provider.remaining).toBe(2);
    expect((await run(provider)).message.content).toEqual([{ type: 'text', text: 'two' }]);
    await expect(run(thinking)).rejects.toThrow('Scripted provider exhausted at call 4.');
  });

  it('traces each consumed script', async () => {
    const lines: string[] = [];
    const provider = new ScriptedProvider(['text: one'], { trace: (line) => lines.push(line) });
    await run(provider);
    expect(lines).toEqual(['SCRIPTED CALL 1: "text: one"']);
  });

  it('rejects a bad script when it is queued, naming the script and the line', () => {
    let caught: unknown;
    try {
      new ScriptedProvider(['text: ok', 'text: ok\nbogus']);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ScriptError);
    expect((caught as Error).message).toBe(
      "Invalid script 2 at line 2: expected 'kind: payload', got 'bogus'",
    );
  });
});
