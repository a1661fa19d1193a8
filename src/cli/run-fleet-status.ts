import { sanitizeForTerminal } from '../util/sanitize-terminal.js';
import { connectFleet } from './fleet-connection.js';

/** `kimi-ts fleet status --queue URL [--json]`: workers, turns by state, which session runs where. */
export async function runFleetStatus(flags: { queue: string; json?: boolean | undefined }): Promise<number> {
  const connected = await connectFleet(flags.queue, 'fleet', 1);
  if ('code' in connected) return connected.code;
  const { redis, address } = connected;
  const { fleetStatus } = await import('../fleet/fleet-status.js');
  try {
    const status = await fleetStatus(redis);
    if (flags.json) {
      process.stdout.write(`${JSON.stringify(status)}\n`);
      return 0;
    }
    const { counts } = status;
    // Worker names come from Redis: whoever can write there chose them.
    const shown = (text: string) => sanitizeForTerminal(text);
    let out = `Fleet on ${address.display}\n`;
    out += `turns: ${counts.waiting} waiting, ${counts.running} running, ${counts.delayed} parked, ${counts.failed} failed, ${counts.completed} completed\n`;
    out += `schedules: ${status.schedules.length}\n`;
    for (const schedule of status.schedules)
      out += `  ${schedule.sessionId} ${schedule.scheduleId} ${schedule.pattern === null ? 'once' : shown(schedule.pattern)}, next ${schedule.next === null ? 'never' : new Date(schedule.next).toISOString()}\n`;
    out += `workers: ${status.workers.length}\n`;
    for (const worker of status.workers) {
      const runs = status.running.filter((run) => run.worker === worker.name);
      out += `  ${shown(worker.name)} (${shown(worker.address)}, idle ${worker.idleS}s): ${runs.length ? runs.map((run) => `${run.sessionId} turn ${run.turn}${run.label ? ` [label ${run.label}]` : ''}`).join(', ') : 'no turn'}\n`;
    }
    for (const swarm of status.swarms)
      out += `waiting for its swarm: ${swarm.sessionId} turn ${swarm.turn}, ${swarm.children} item${swarm.children === 1 ? '' : 's'} still to end (no worker held)\n`;
    for (const item of status.items)
      out += `  swarm item ${item.index} of ${item.sessionId} turn ${item.turn} on ${shown(item.worker)}\n`;
    for (const { label, waiting } of status.pinned)
      out += `pinned to label ${shown(label)}: ${waiting} turn${waiting === 1 ? '' : 's'} waiting for a worker started with --label ${shown(label)}\n`;
    const orphans = status.running.filter((run) => !status.workers.some((w) => w.name === run.worker));
    for (const run of orphans)
      out += `  (a worker that is gone: ${shown(run.worker)}): ${run.sessionId} turn ${run.turn}, taken over once its lease expires\n`;
    process.stdout.write(out);
    return 0;
  } finally {
    redis.disconnect();
  }
}
