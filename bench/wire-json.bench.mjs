// wire.jsonl lines per second: the encoder derived from the schemas (recordLine) against a bare
// JSON.stringify of the same in-memory messages, on a model-shaped stream of single fragments
// (the worst case: the recorder normally writes merged parts).
import { performance } from 'node:perf_hooks';
import { recordLine } from '../dist/wire/index.js';

const FRAGMENTS = 200_000;
const RUNS = 9;

function makeMessages() {
  const messages = [];
  for (let i = 0; messages.length < FRAGMENTS; i++) {
    if (i % 500 === 499) {
      messages.push({
        type: 'ToolCall',
        payload: { type: 'function', id: `call_${i}`, function: { name: 'Shell', arguments: null } },
      });
      for (let j = 0; j < 20; j++)
        messages.push({ type: 'ToolCallPart', payload: { type: 'tool_call_part', arguments_part: '{"a":' } });
      messages.push({ type: 'StatusUpdate', payload: { context_usage: 0.1, message_id: `m${i}` } });
    } else if (i % 100 < 10) {
      messages.push({ type: 'ContentPart', payload: { type: 'think', think: 'hmm ' } });
    } else {
      messages.push({ type: 'ContentPart', payload: { type: 'text', text: 'tok ' } });
    }
  }
  return messages;
}

function time(messages, line) {
  const start = performance.now();
  let bytes = 0;
  for (let i = 0; i < messages.length; i++) bytes += line(messages[i]).length;
  const ms = performance.now() - start;
  if (bytes === 0) throw new Error('nothing encoded');
  return ms;
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

export default async function wireJsonBench() {
  const messages = makeMessages();
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
