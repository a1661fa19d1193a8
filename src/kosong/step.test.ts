import { describe, expect, it } from 'vitest';
import { gate } from '../../test/support/loopback-server.js';
import { APIConnectionError } from './errors.js';
import type { StreamedPart, ToolCall } from './message.js';
import type { ChatProvider, StreamedMessage } from './provider.js';
import { callableTool, SimpleToolset } from './simple-toolset.js';
import { type InterruptedStep, step } from './step.js';
import { type ToolDispatch, type ToolResult, type Toolset, toolOk } from './tool.js';

/** Streams parts; before the part at `holdAt` it waits for `hold`; after all parts it may fail. */
function heldProvider(
  parts: StreamedPart[],
  options: { holdAt?: number; hold?: Promise<void>; failWith?: Error } = {},
): ChatProvider {
  return {
    name: 'held',
    modelName: 'held',
    thinkingEffort: null,
    withThinking() {
      return this;
    },
    async generate(): Promise<StreamedMessage> {
      return {
        id: null,
        usage: null,
        async *[Symbol.asyncIterator]() {
          for (const [i, part] of parts.entries()) {
            if (i === options.holdAt) await options.hold;
            yield structuredClone(part);
          }
          if (options.failWith) throw options.failWith;
        },
      };
    },
  };
}

const call = (id: string, name: string, args: string): StreamedPart => ({
  type: 'function',
  id,
  function: { name, arguments: args },
});
const text = (t: string): StreamedPart => ({ type: 'text', text: t });

describe('step', () => {
  it('starts a tool while the stream is still open and returns results in call order', async () => {
    const held = gate();
    const started = gate();
    const toolset = new SimpleToolset([
      callableTool('Slow', '', { type: 'object' }, async () => {
        started.open();
        return toolOk('slow done');
      }),
      callableTool('Fast', '', { type: 'object' }, () => toolOk('fast done')),
    ]);
    const provider = heldProvider([call('1', 'Slow', '{}'), call('2', 'Fast', '{}'), text('waiting')], {
      holdAt: 2,
      hold: held.promise,
    });
    const seen: string[] = [];
    const resultPromise = step(provider, '', toolset, [], { onToolResult: (r) => seen.push(r.tool_call_id) });
    await started.promise; // the stream is held before its last part: the tool ran mid-stream
    held.open();
    const result = await resultPromise;
    const results = await result.toolResults();
    expect(results.map((r) => [r.tool_call_id, r.return_value.output])).toEqual([
      ['1', 'slow done'],
      ['2', 'fast done'],
    ]);
    expect(seen.sort()).toEqual(['1', '2']);
    expect(result.toolCalls.map((c) => c.id)).toEqual(['1', '2']);
  });

  it('aborts and awaits running tools when the stream fails, then rethrows', async () => {
    const started = gate();
    let settled = false;
    const toolset = new SimpleToolset([
      callableTool('Wait', '', { type: 'object' }, async (_args, { signal }) => {
        started.open();
        await new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }));
        settled = true;
        return toolOk('aborted');
      }),
    ]);
    const provider = heldProvider([call('1', 'Wait', '{}'), text('x')], {
      failWith: new APIConnectionError('cut'),
    });
    await expect(step(provider, '', toolset, [])).rejects.toBeInstanceOf(APIConnectionError);
    await started.promise;
    expect(settled).toBe(true);
  });

  it('tells the toolset whether the stream ended cleanly', async () => {
    const outcomes: boolean[] = [];
    const recording: Toolset = {
      tools: [],
      handle(c: ToolCall, dispatch: ToolDispatch): Promise<ToolResult> {
        return dispatch.streamOutcome.then((clean) => {
          outcomes.push(clean);
          return { tool_call_id: c.id, return_value: toolOk(clean ? 'ran' : 'skipped') };
        });
      },
    };
    const ok = await step(heldProvider([call('1', 'X', '{}')]), '', recording, []);
    await ok.toolResults();
    await expect(
      step(
        heldProvider([call('2', 'X', '{}'), text('a')], { failWith: new APIConnectionError('cut') }),
        '',
        recording,
        [],
      ),
    ).rejects.toThrow('cut');
    expect(outcomes).toEqual([true, false]);
  });

  it('aborts tools when the caller aborts while waiting for results', async () => {
    const controller = new AbortController();
    const started = gate();
    let aborted = false;
    const toolset = new SimpleToolset([
      callableTool('Wait', '', { type: 'object' }, async (_args, { signal }) => {
        started.open();
        await new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }));
        aborted = true;
        return toolOk('stopped');
      }),
    ]);
    const result = await step(heldProvider([call('1', 'Wait', '{}')]), '', toolset, [], {
      signal: controller.signal,
    });
    const waiting = result.toolResults();
    await started.promise;
    controller.abort();
    await expect(waiting).rejects.toThrow();
    expect(aborted).toBe(true);
  });

  it('turns a toolset that throws into an error result', async () => {
    const broken: Toolset = {
      tools: [],
      handle() {
        throw new Error('boom');
      },
    };
    const result = await step(heldProvider([call('1', 'X', '{}')]), '', broken, []);
    const [only] = await result.toolResults();
    expect(only?.return_value.is_error).toBe(true);
    expect(only?.return_value.message).toContain('boom');
  });

  it('reports an interrupted step: the calls, and the results that existed before the abort', async () => {
    const controller = new AbortController();
    const started = gate();
    const toolset = new SimpleToolset([
      callableTool('Quick', '', { type: 'object' }, () => toolOk('quick done')),
      callableTool('Wait', '', { type: 'object' }, async (_args, { signal }) => {
        started.open();
        await new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }));
        return toolOk('stopped late');
      }),
    ]);
    const records: InterruptedStep[] = [];
    const result = await step(
      heldProvider([text('working'), call('1', 'Quick', '{}'), call('2', 'Wait', '{}')]),
      '',
      toolset,
      [],
      { signal: controller.signal, onInterrupted: (r) => records.push(r) },
    );
    const waiting = result.toolResults();
    await started.promise;
    controller.abort();
    await expect(waiting).rejects.toThrow();
    expect(records).toHaveLength(1);
    const [record] = records;
    expect(record?.message.content).toEqual([text('working')]);
    expect(record?.calls.map(({ call: c, result: r }) => [c.id, r?.return_value.output ?? null])).toEqual([
      ['1', 'quick done'],
      ['2', null],
    ]);
  });

  it('reports nothing when the step fails for another reason than its signal', async () => {
    const records: InterruptedStep[] = [];
    const provider = heldProvider([text('x')], { failWith: new APIConnectionError('cut') });
    await expect(
      step(provider, '', new SimpleToolset([]), [], { onInterrupted: (r) => records.push(r) }),
    ).rejects.toThrow('cut');
    expect(records).toEqual([]);
  });
});
