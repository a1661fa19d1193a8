// `kimi-ts web` under load: 20 sessions at once through one server (bench/web-load.mjs).
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runWebLoad } from './web-load.mjs';

const launcher = join(dirname(fileURLToPath(import.meta.url)), '..', 'dist/bin/kimi-ts.cjs');

export default async function webBench() {
  const r = await runWebLoad({ launcher, sessions: 20, turns: 2, toolSteps: 2 });
  const expected = r.sessions * r.turnsPerSession;
  const mib = r.peakRssBytes / 1024 / 1024;
  return [
    {
      name: `${r.sessions} sessions × ${r.turnsPerSession} turns × 2 tool calls: turns finished`,
      value: r.finished,
      unit: `of ${expected}`,
      target: `${expected}`,
      ok: r.finished === expected,
    },
    {
      name: 'every event reached both clients of its session, in order',
      value: r.events,
      unit: 'events',
      target: 'same order',
      ok: r.inOrder,
    },
    { name: 'wall time for all turns', value: r.wallMs, unit: 'ms' },
    { name: 'server peak RSS (VmHWM)', value: mib, unit: 'MiB', target: '≤ 300 MiB', ok: mib <= 300 },
  ];
}
