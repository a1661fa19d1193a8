// Fragments per second through the Wire to one raw and one merged subscriber, with and without the
// recorder, against a bare loop that pushes the same message objects into an array in the same run.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Wire } from '../dist/wire/index.js';
import { median } from './stats.mjs';
import { modelShapedMessages } from './wire-messages.mjs';

const FRAGMENTS = 200_000;
const RUNS = 7;

function bareLoop(messages) {
  const start = performance.now();
  const sink = [];
  for (let i = 0; i < messages.length; i++) sink.push(messages[i]);
  const ms = performance.now() - start;
  if (sink.length !== messages.length) throw new Error('bare loop lost messages');
  return ms;
}

async function throughWire(messages, { file, perMessage }) {
  const start = performance.now();
  const wire = new Wire(file ? { file } : {});
  let received = 0;
  const read = perMessage
    ? async (subscription) => {
        for await (const _ of subscription) received++;
      }
    : async (subscription) => {
        for await (const batch of subscription.batches()) received += batch.length;
      };
  const reading = Promise.all([
    read(wire.subscribe({ merge: false })),
    read(wire.subscribe({ merge: true })),
  ]);
  for (let i = 0; i < messages.length; i++) {
    wire.send(messages[i]);
    // Let the readers run now and then, as they would between network chunks.
    if ((i & 1023) === 1023) await null;
  }
  wire.shutdown();
  await reading;
  await wire.join();
  const ms = performance.now() - start;
  if (received < messages.length) throw new Error('wire lost messages');
  return ms;
}

export default async function wireBench() {
  const messages = modelShapedMessages(FRAGMENTS);
  const dir = await mkdtemp(join(tmpdir(), 'kimi-ts-wire-bench-'));
  try {
    const variants = {
      bare: () => bareLoop(messages),
      batches: () => throughWire(messages, { perMessage: false }),
      perMessage: () => throughWire(messages, { perMessage: true }),
      recorder: async () => {
        const file = join(dir, `wire-${Math.random().toString(36).slice(2)}.jsonl`);
        const ms = await throughWire(messages, { file, perMessage: false });
        await rm(file, { force: true });
        return ms;
      },
    };
    const times = Object.fromEntries(Object.keys(variants).map((key) => [key, []]));
    for (const run of Object.values(variants)) await run(); // warm-up
    // Interleaved, so that all variants see the same machine conditions.
    for (let r = 0; r < RUNS; r++) {
      for (const [key, run] of Object.entries(variants)) times[key].push(await run());
    }
    const ms = Object.fromEntries(Object.entries(times).map(([key, list]) => [key, median(list)]));
    const rate = (key) => messages.length / (ms[key] / 1000);
    const ratio = (key) => ms[key] / ms.bare;
    return [
      {
        name: `bare loop: push ${FRAGMENTS} fragments into an array`,
        value: rate('bare'),
        unit: 'fragments/s',
      },
      {
        name: 'Wire → raw + merged subscribers (batch readers)',
        value: rate('batches'),
        unit: 'fragments/s',
        ratio: ratio('batches'),
        target: '≤ 5× bare loop',
        ok: ratio('batches') <= 5,
      },
      {
        name: 'Wire → raw + merged subscribers (for-await per message)',
        value: rate('perMessage'),
        unit: 'fragments/s',
        ratio: ratio('perMessage'),
      },
      {
        name: 'Wire + wire.jsonl recorder → raw + merged (batch readers)',
        value: rate('recorder'),
        unit: 'fragments/s',
        ratio: ratio('recorder'),
      },
    ];
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
