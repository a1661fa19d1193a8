// A scripted soul session for the soul benchmarks, run in its own process so measurements of memory
// and time are not disturbed by other benchmarks. Usage:
//   node bench/soul-run.mjs <steps> <history-messages> <work-dir>
// Prints one JSON line: { perStepMs, rssAt: { [step]: bytes }, steps }.
import { join } from 'node:path';
import { z } from 'zod';
import { noHooks } from '../dist/hooks/types.js';
import { toolOk } from '../dist/kosong/index.js';
import { ScriptedProvider } from '../dist/kosong/providers/scripted/index.js';
import { Context } from '../dist/soul/context/context.js';
import { DenwaRenji } from '../dist/soul/dmail.js';
import { runSoul } from '../dist/soul/run-soul.js';
import { Soul } from '../dist/soul/soul.js';
import { KimiToolset } from '../dist/toolset/kimi-toolset.js';
import { defineTool } from '../dist/toolset/tool-definition.js';

const [steps, historySize, dir] = [Number(process.argv[2]), Number(process.argv[3]), process.argv[4]];

const context = await Context.restore(join(dir, 'context.jsonl'));
await context.writeSystemPrompt('bench');
const filler = [];
for (let i = 0; i < historySize; i++) {
  filler.push({
    role: i % 2 ? 'assistant' : 'user',
    content: [{ type: 'text', text: `message ${i} `.repeat(8) }],
  });
}
if (filler.length) await context.appendMessages(filler);

const turns = [];
for (let i = 0; i < steps - 1; i++) {
  turns.push([{ type: 'function', id: `c${i}`, function: { name: 'Noop', arguments: `{"i":${i}}` } }]);
}
turns.push([{ type: 'text', text: 'done' }]);
const provider = ScriptedProvider.fromParts(turns);
const toolset = new KimiToolset();
toolset.add(
  defineTool({
    name: 'Noop',
    description: '',
    params: z.object({ i: z.number() }),
    effect: 'read-only',
    call: () => toolOk('ok'),
  }),
);
const soul = new Soul({
  llm: { provider, maxContextSize: 0, capabilities: new Set() },
  context,
  toolset,
  systemPrompt: 'bench',
  loopControl: {
    maxStepsPerTurn: steps + 1,
    maxRetriesPerStep: 1,
    reservedContextSize: 50_000,
    compactionTriggerRatio: 0.85,
  },
  hooks: noHooks,
  denwaRenji: new DenwaRenji(),
  isRoot: true,
  injections: [],
});

const rssAt = {};
const heapAt = {};
const samples = new Set([1000, Math.floor(steps / 2), steps]);
const start = performance.now();
await runSoul(
  (signal) => soul.run('go', signal),
  async (wire) => {
    for await (const batch of wire.subscribe({ merge: true }).batches()) {
      for (const m of batch) {
        if (m.type === 'StepBegin' && samples.has(m.payload.n)) {
          globalThis.gc?.();
          rssAt[m.payload.n] = process.memoryUsage().rss;
          heapAt[m.payload.n] = process.memoryUsage().heapUsed;
        }
      }
    }
  },
  new AbortController().signal,
);
const elapsed = performance.now() - start;
await context.close();
process.stdout.write(`${JSON.stringify({ perStepMs: elapsed / steps, rssAt, heapAt, steps })}\n`);
