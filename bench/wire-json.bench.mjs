// wire.jsonl lines per second: the encoder derived from the schemas (recordLine) against a bare
// JSON.stringify of the same in-memory messages, on a model-shaped stream of single fragments
// (the worst case: the recorder normally writes merged parts).
import { performance } from 'node:perf_hooks';
import { recordLine } from '../dist/wire/index.js';
import { median } from './stats.mjs';
import { modelShapedMessages } from './wire-messages.mjs';

const FRAGMENTS = 200_000;
const RUNS = 9;

function time(messages, line) {
  const start = performance.now();
  let bytes = 0;
  for (let i = 0; i < messages.length; i++) bytes += line(messages[i]).length;
  const ms = performance.now() - start;
  if (bytes === 0) throw new Error('nothing encoded');
  return ms;
}

export default async function wireJsonBench() {
  const messages = modelShapedMessages(FRAGMENTS);
  const timestamp = 1764543600.125;
  const variants = {
    bare: (message) => `${JSON.stringify({ timestamp, message })}\n`,
    derived: (message) => recordLine(message, timestamp),
  };
  const times = { bare: [], derived: [] };
  for (const line of Object.values(variants)) time(messages, line); // warm-up
  for (let r = 0; r < RUNS; r++) {
    for (const [key, line] of Object.entries(variants)) times[key].push(time(messages, line));
  }
  const rate = (key) => messages.length / (median(times[key]) / 1000);
  const ratio = median(times.derived) / median(times.bare);
  return [
    { name: `bare JSON.stringify of ${FRAGMENTS} in-memory fragments`, value: rate('bare'), unit: 'lines/s' },
    {
      name: 'wire.jsonl lines, encoded from the schemas (recordLine)',
      value: rate('derived'),
      unit: 'lines/s',
      ratio,
      target: '≤ 2× bare stringify',
      ok: ratio <= 2,
    },
  ];
}
