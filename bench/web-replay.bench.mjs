// The web server's per-session replay log (src/ui/web/server/replay-log.ts) for a long session:
// 100,000 frames (~50 MB of JSON text) appended as a stream would, then replayed in full. What stays
// in memory is bounded by the cap; the replay reads the rest from the spill file, in order, once each.
import { performance } from 'node:perf_hooks';
import { DEFAULT_REPLAY_MEMORY_BYTES, ReplayLog } from '../dist/ui/web/server/replay-log.js';

const FRAMES = 100_000;
const PAYLOAD = 'x'.repeat(420);

export default async function webReplayBench() {
  const log = new ReplayLog();
  const appendStart = performance.now();
  let textBytes = 0;
  let peak = 0;
  for (let i = 0; i < FRAMES; i++) {
    const text = `{"jsonrpc":"2.0","method":"event","params":{"type":"ContentPart","payload":{"n":${i},"text":"${PAYLOAD}"}}}`;
    textBytes += text.length;
    log.append({ kind: 'event', text });
    // A turn of the event loop every 200 frames (~90 KB), as between a stream's network chunks.
    if (i % 200 === 0) await new Promise((resolve) => setImmediate(resolve));
    if (log.memoryUsed > peak) peak = log.memoryUsed;
  }
  const appendMs = performance.now() - appendStart;
  // The spill writes catch up (a deadline, not a fixed wait).
  for (const end = Date.now() + 5000; log.memoryUsed > DEFAULT_REPLAY_MEMORY_BYTES && Date.now() < end; )
    await new Promise((resolve) => setTimeout(resolve, 10));
  const heldMiB = log.memoryUsed / 1024 / 1024;
  const replayStart = performance.now();
  let next = 0;
  let inOrder = true;
  await log.replay((frame) => {
    const n = Number(/"n":(\d+)/.exec(frame.text)?.[1]);
    if (n !== next) inOrder = false;
    next++;
  });
  const replayMs = performance.now() - replayStart;
  await log.close();
  const capMiB = DEFAULT_REPLAY_MEMORY_BYTES / 1024 / 1024;
  return [
    {
      name: `replay log: ${FRAMES} frames (${(textBytes / 1024 / 1024).toFixed(0)} MiB): held in memory after`,
      value: heldMiB,
      unit: 'MiB',
      target: `≤ ${capMiB} MiB`,
      ok: heldMiB <= capMiB,
    },
    {
      name: `replay log: peak in memory while a ${(textBytes / 1e6 / (appendMs / 1000)).toFixed(0)} MB/s stream outran the disk`,
      value: peak / 1024 / 1024,
      unit: 'MiB',
    },
    { name: 'replay log: appending them', value: appendMs, unit: 'ms' },
    {
      name: 'replay log: a full replay (spill file, then memory), every frame once, in order',
      value: replayMs,
      unit: 'ms',
      target: `${FRAMES} in order`,
      ok: inOrder && next === FRAMES,
    },
  ];
}
