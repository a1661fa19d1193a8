import { describe, expect, it } from 'vitest';
import { APIConnectionError, APIEmptyResponseError, APIStatusError, APITimeoutError } from '../../errors.js';
import { generate } from '../../generate.js';
import { message, type StreamedPart } from '../../message.js';
import type { ChatProvider } from '../../provider.js';
import { EchoProvider } from '../scripted/echo-provider.js';
import { ScriptedProvider } from '../scripted/scripted-provider.js';
import type { ChaosOptions } from './chaos-options.js';
import { ChaosProvider } from './chaos-provider.js';

const history = [message('user', 'text: fine')];
const run = (provider: ChatProvider, options: Parameters<typeof generate>[4] = {}) =>
  generate(provider, '', [], history, options);

/** The name of what each call produced: the error class, or `ok`. */
async function outcomesOf(options: ChaosOptions, calls: number): Promise<string[]> {
  const chaos = new ChaosProvider(new EchoProvider(), options);
  const names: string[] = [];
  for (let i = 0; i < calls; i++) {
    names.push(
      await run(chaos).then(
        () => 'ok',
        (error: Error) => (error instanceof APIStatusError ? `${error.statusCode}` : error.name),
      ),
    );
  }
  return names;
}

const everyFault: ChaosOptions['rates'] = {
  '429': 0.1,
  '500': 0.1,
  '503': 0.1,
  connection: 0.1,
  timeout: 0.1,
  empty: 0.1,
  think_only: 0.1,
  cut: 0.1,
};

describe('ChaosProvider', () => {
  it('replays the same faults for the same seed and other faults for another seed', async () => {
    const first = await outcomesOf({ seed: 2024, rates: everyFault }, 200);
    const again = await outcomesOf({ seed: 2024, rates: everyFault }, 200);
    const other = await outcomesOf({ seed: 2025, rates: everyFault }, 200);
    expect(again).toEqual(first);
    expect(other).not.toEqual(first);
    expect(new Set(first)).toEqual(
      new Set(['ok', '429', '500', '503', 'APIConnectionError', 'APITimeoutError', 'APIEmptyResponseError']),
    );
  });

  it('injects faults at about the configured rate and records every call', async () => {
    const chaos = new ChaosProvider(new EchoProvider(), { seed: 9, rates: { '500': 0.25 } });
    for (let i = 0; i < 2000; i++) await run(chaos).catch(() => undefined);
    expect(chaos.outcomes).toHaveLength(2000);
    expect(chaos.outcomes[0]?.call).toBe(1);
    const share = chaos.injected.length / 2000;
    expect(share).toBeGreaterThan(0.2);
    expect(share).toBeLessThan(0.3);
    expect(chaos.injected.every((outcome) => outcome.fault === '500')).toBe(true);
  });

  it('passes calls through untouched when no fault is drawn', async () => {
    const chaos = new ChaosProvider(new ScriptedProvider(['id: real\ntext: real answer']), {
      seed: 1,
      rates: {},
    });
    const result = await run(chaos);
    expect(result.id).toBe('real');
    expect(result.message.content).toEqual([{ type: 'text', text: 'real answer' }]);
    expect(chaos.outcomes).toEqual([{ call: 1, fault: null }]);
    expect([chaos.name, chaos.modelName]).toEqual(['chaos', 'scripted']);
  });

  it.each([
    ['429', APIStatusError],
    ['500', APIStatusError],
    ['503', APIStatusError],
    ['connection', APIConnectionError],
    ['timeout', APITimeoutError],
    ['empty', APIEmptyResponseError],
    ['think_only', APIEmptyResponseError],
  ] as const)(
    'surfaces %s through generate() as %o without calling the wrapped provider',
    async (fault, type) => {
      const inner = new ScriptedProvider(['text: untouched']);
      const chaos = new ChaosProvider(inner, { seed: 3, rates: { [fault]: 1 }, retryAfterMs: 1500 });
      const error = await run(chaos).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(type);
      expect(inner.remaining).toBe(1);
      expect(chaos.injected).toEqual([{ call: 1, fault }]);
      if (error instanceof APIStatusError)
        expect([error.statusCode, error.retryAfterMs]).toEqual([Number(fault), 1500]);
    },
  );

  it('tells a thinking-only answer from an empty one', async () => {
    const thinkOnly = new ChaosProvider(new EchoProvider(), { seed: 1, rates: { think_only: 1 } });
    await expect(run(thinkOnly)).rejects.toThrow(/only thinking content/);
    const empty = new ChaosProvider(new EchoProvider(), { seed: 1, rates: { empty: 1 } });
    await expect(run(empty)).rejects.toThrow('The API returned an empty response.');
  });

  it('cuts a real stream part-way with a connection error', async () => {
    const parts = Array.from({ length: 50 }, (_, i): StreamedPart => ({ type: 'text', text: `${i},` }));
    const inner = ScriptedProvider.fromParts([parts]);
    const chaos = new ChaosProvider(inner, { seed: 5, rates: { cut: 1 }, maxPartsBeforeCut: 4 });
    const seen: StreamedPart[] = [];
    const error = await run(chaos, { onMessagePart: (part) => seen.push(part) }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(APIConnectionError);
    const [outcome] = chaos.injected;
    expect(outcome?.fault).toBe('cut');
    expect(seen).toHaveLength(outcome?.partsBeforeCut ?? -1);
    expect(seen.length).toBeGreaterThanOrEqual(1);
    expect(seen.length).toBeLessThanOrEqual(4);
    expect((error as Error).message).toBe(`Chaos: connection dropped after ${seen.length} streamed parts.`);
    expect(inner.remaining).toBe(0);
  });

  it('cuts even a stream shorter than the planned cut before it ends normally', async () => {
    const chaos = new ChaosProvider(ScriptedProvider.fromParts([[{ type: 'text', text: 'short' }]]), {
      seed: 5,
      rates: { cut: 1 },
      maxPartsBeforeCut: 1000,
    });
    await expect(run(chaos)).rejects.toThrow('Chaos: connection dropped after 1 streamed parts.');
  });

  it('says its own failures are worth a retry and asks the wrapped provider about others', async () => {
    const chaos = new ChaosProvider(new EchoProvider(), { seed: 1, rates: { connection: 1 } });
    const injected = (await run(chaos).catch((e: unknown) => e)) as Error;
    expect(await chaos.onRetryableError(injected)).toBe(true);
    expect(await chaos.onRetryableError(new APIConnectionError('real'))).toBe(false);
  });

  it('gives withThinking copies the wrapped copy and their own generator at the same position', async () => {
    const chaos = new ChaosProvider(new EchoProvider(), { seed: 77, rates: everyFault });
    await run(chaos).catch(() => undefined);
    const copy = chaos.withThinking('high');
    expect(copy.thinkingEffort).toBe('high');
    expect(chaos.thinkingEffort).toBeNull();
    for (let i = 0; i < 20; i++) {
      await run(chaos).catch(() => undefined);
      await run(copy).catch(() => undefined);
    }
    expect(copy.outcomes).toEqual(chaos.outcomes);
    expect(copy.outcomes).not.toBe(chaos.outcomes);
  });

  it('honours an aborted signal before drawing', async () => {
    const chaos = new ChaosProvider(new EchoProvider(), { seed: 1, rates: { '500': 1 } });
    const controller = new AbortController();
    controller.abort();
    await expect(run(chaos, { signal: controller.signal })).rejects.toMatchObject({ name: 'AbortError' });
    expect(chaos.outcomes).toEqual([]);
  });

  describe('cuts at a point of the real stream', () => {
    const parts: StreamedPart[] = [
      { type: 'text', text: 'Let me ' },
      { type: 'text', text: 'look.' },
      { type: 'function', id: 'c1', function: { name: 'Glob', arguments: '{"pattern":' } },
      { type: 'tool_call_part', arguments_part: ' "*.ts"}' },
      { type: 'function', id: 'c2', function: { name: 'Glob', arguments: '{}' } },
    ];
    it.each([
      ['cut_after_text', ['text', 'text']],
      ['cut_after_call', ['text', 'text', 'function', 'tool_call_part']],
      ['cut_mid_arguments', ['text', 'text', 'function']],
    ] as const)('%s', async (fault, seenTypes) => {
      const chaos = new ChaosProvider(ScriptedProvider.fromParts([parts]), {
        seed: 1,
        rates: { [fault]: 1 },
      });
      const seen: StreamedPart[] = [];
      const error = await run(chaos, { onMessagePart: (p) => seen.push(p) }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(APIConnectionError);
      expect(seen.map((p) => p.type)).toEqual(seenTypes);
      if (fault === 'cut_mid_arguments') expect(seen[2]).toMatchObject({ function: { arguments: '{"pat' } });
    });
  });

  it('stalls until the request is aborted', async () => {
    const chaos = new ChaosProvider(ScriptedProvider.fromParts([[{ type: 'text', text: 'hi' }]]), {
      seed: 4,
      rates: { stall: 1 },
      maxPartsBeforeCut: 1,
    });
    const seen: StreamedPart[] = [];
    const error = await run(chaos, { stall: { timeoutMs: 30 }, onMessagePart: (p) => seen.push(p) }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(APITimeoutError);
    const [outcome] = chaos.injected;
    expect(outcome?.fault).toBe('stall');
    expect(seen).toHaveLength(Math.min(1, outcome?.partsBeforeCut ?? -1));
  });
});
