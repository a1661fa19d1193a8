// The fleet on loopback (issue 29): 4 workers × 200 one-turn sessions through BullMQ on a real
// redis-server, then the same at 4× the concurrency. FLEET_BENCH_SESSIONS=N for a smaller run.
import { runFleetLoad } from './fleet-load.mjs';

export default async function fleetBench() {
  const sessions = Number(process.env.FLEET_BENCH_SESSIONS) || 200;
  const rows = [];
  for (const concurrency of [1, 4]) {
    const r = await runFleetLoad({ workers: 4, concurrency, sessions });
    const label = `4 workers × ${concurrency}, ${sessions} sessions`;
    rows.push({ name: `${label}: sessions per second`, value: r.sessionsPerS, unit: 'sessions/s' });
    if (concurrency === 1) {
      rows.push({
        name: 'queue latency per turn, idle fleet (enqueue → first event of the turn), p50',
        value: r.pickupP50,
        unit: 'ms',
        target: '≤ 20 ms',
        ok: r.pickupP50 <= 20,
      });
      rows.push({
        name: 'queue latency per turn, idle fleet, p99',
        value: r.pickupP99,
        unit: 'ms',
        target: '≤ 20 ms',
        ok: r.pickupP99 <= 20,
      });
      rows.push({
        name: 'Redis memory per finished session',
        value: r.redisBytesPerSession / 1024,
        unit: 'KiB',
      });
    }
    rows.push({
      name: `${label}: worker peak RSS ÷ turns it runs at once`,
      value: r.rssPerRunningTurnMb,
      unit: 'MB',
    });
  }
  return rows;
}
