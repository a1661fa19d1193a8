// kosong benchmarks: generate() merge throughput and step() overhead per tool call.

import { z } from 'zod';
import { generate, SimpleToolset, step, toolOk } from '../dist/kosong/index.js';
import { ScriptedProvider } from '../dist/kosong/providers/scripted/index.js';
import { defineTool, KimiToolset } from '../dist/toolset/index.js';

const FRAGMENTS = 200_000;
const TOOL_CALLS = 2_000;
const START_LATENCY_CALLS = 1_000;
/** How long a held stream waits for the tool to start before it ends anyway (the pre-fix latency). */
const HOLD_CAP_MS = 50;

/**
 * Tool start after its last argument fragment: each call's stream yields the call in fragments,
 * stamps the time of the last one, then stays open until the tool has started (or HOLD_CAP_MS), the
 * way a model goes on talking after a call. The latency is stamp → the tool's first line.
 */
async function toolStartLatencies() {
  const latencies = [];
  let lastFragmentAt = 0;
  let started = () => {};
  // The real toolset (parse, hooks, dedup bookkeeping), with a read-only tool.
  const toolset = new KimiToolset();
  toolset.add(
    defineTool({
      name: 'Probe',
      description: 'Reads nothing.',
      params: z.object({ path: z.string(), n: z.number() }),
      effect: 'read-only',
      call: () => {
        latencies.push(performance.now() - lastFragmentAt);
        started();
        return toolOk('');
      },
    }),
  );
  const provider = {
    name: 'held',
    modelName: 'held',
    thinkingEffort: null,
    withThinking() {
      return this;
    },
    async generate() {
      return {
        id: null,
        usage: null,
        async *[Symbol.asyncIterator]() {
          const toolStarted = new Promise((resolve) => {
            started = resolve;
          });
          yield { type: 'function', id: 'c', function: { name: 'Probe', arguments: '{"path": "a/b' } };
          yield { type: 'tool_call_part', arguments_part: '/c.txt", "n": ' };
          lastFragmentAt = performance.now();
          yield { type: 'tool_call_part', arguments_part: '1}' };
          let timer;
          await Promise.race([
            toolStarted,
            new Promise((resolve) => (timer = setTimeout(resolve, HOLD_CAP_MS))),
          ]);
          clearTimeout(timer);
          yield { type: 'text', text: 'and more' };
        },
      };
    },
  };
  for (let i = 0; i < START_LATENCY_CALLS; i++) {
    toolset.beginStep([]);
    const result = await step(provider, '', toolset, []);
    await result.toolResults();
    toolset.endStep();
  }
  if (latencies.length !== START_LATENCY_CALLS) throw new Error(`the probe ran ${latencies.length} times`);
  latencies.sort((a, b) => a - b);
  return latencies[Math.floor(latencies.length / 2)];
}

/** Best of `runs` timings, in milliseconds. */
async function best(runs, fn) {
  let min = Number.POSITIVE_INFINITY;
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    await fn();
    min = Math.min(min, performance.now() - start);
  }
  return min;
}

function textTurn() {
  const parts = [];
  for (let i = 0; i < FRAGMENTS; i++) parts.push({ type: 'text', text: `tok${i % 10} ` });
  return parts;
}

export default async function kosongBench() {
  const parts = textTurn();
  const provider = () => ScriptedProvider.fromParts([parts]);

  // Baseline: consume the same scripted stream and do the string work by hand.
  const bare = await best(5, async () => {
    const stream = await provider().generate({ systemPrompt: '', tools: [], history: [] });
    let text = '';
    const raw = [];
    for await (const part of stream) {
      raw.push({ ...part });
      text += part.text;
    }
    if (text.length === 0 || raw.length !== FRAGMENTS) throw new Error('bad baseline');
  });
  const merged = await best(5, async () => {
    let count = 0;
    const result = await generate(provider(), '', [], [], { onMessagePart: () => count++ });
    if (result.message.content.length !== 1 || count !== FRAGMENTS) throw new Error('bad merge');
  });

  // step(): one model answer with many tool calls to a no-op tool.
  const calls = [];
  for (let i = 0; i < TOOL_CALLS; i++) {
    calls.push({ type: 'function', id: `c${i}`, function: { name: 'Noop', arguments: '{"i":' } });
    calls.push({ type: 'tool_call_part', arguments_part: `${i}}` });
  }
  const toolset = new SimpleToolset([
    { name: 'Noop', description: '', parameters: { type: 'object' }, call: () => toolOk('') },
  ]);
  const stepMs = await best(5, async () => {
    const result = await step(ScriptedProvider.fromParts([calls]), '', toolset, []);
    const results = await result.toolResults();
    if (results.length !== TOOL_CALLS) throw new Error('bad step');
  });
  const stepBare = await best(5, async () => {
    const stream = await ScriptedProvider.fromParts([calls]).generate({
      systemPrompt: '',
      tools: [],
      history: [],
    });
    const results = [];
    let args = '';
    for await (const part of stream) {
      if (part.type === 'function') args = part.function.arguments;
      else {
        args += part.arguments_part;
        results.push({ tool_call_id: 'x', return_value: toolOk(String(JSON.parse(args).i)) });
      }
    }
  });

  const startMedianMs = await toolStartLatencies();

  return [
    {
      name: `tool start after its last argument fragment (median of ${START_LATENCY_CALLS} calls)`,
      value: startMedianMs,
      unit: 'ms',
      target: '≤ 1 ms',
      ok: startMedianMs <= 1,
    },
    {
      name: `generate() merge, ${FRAGMENTS} text fragments`,
      value: FRAGMENTS / (merged / 1000),
      unit: 'fragments/s',
      ratio: merged / bare,
      target: '≤ 3× bare loop over the same stream',
      ok: merged / bare <= 3,
    },
    {
      name: `step() overhead per tool call (${TOOL_CALLS} calls)`,
      value: (stepMs / TOOL_CALLS) * 1000,
      unit: 'µs/call',
      ratio: stepMs / stepBare,
    },
  ];
}
