import { USAGE_EXIT_CODE, usageErrorText } from './usage-text.js';

/** `kimi-ts fleet status --queue URL [--json]`: workers, turns by state, which session runs where. */
export async function runFleetStatus(flags: { queue: string; json?: boolean | undefined }): Promise<number> {
  const [{ parseQueueUrl, QueueUrlError }, { connectRedis, RedisUnreachable }, { fleetStatus }] =
    await Promise.all([
      import('../fleet/queue-address.js'),
      import('../fleet/redis-connection.js'),
      import('../fleet/fleet-status.js'),
    ]);
  let address: ReturnType<typeof parseQueueUrl>;
  try {
    address = parseQueueUrl(flags.queue);
  } catch (error) {
    if (!(error instanceof QueueUrlError)) throw error;
    process.stderr.write(usageErrorText(error.message));
    return USAGE_EXIT_CODE;
  }
  let redis: Awaited<ReturnType<typeof connectRedis>>;
  try {
    redis = await connectRedis(address, { graceMs: 0 });
  } catch (error) {
    if (!(error instanceof RedisUnreachable)) throw error;
    process.stderr.write(`kimi-ts fleet: ${error.message}\n`);
    return 1;
  }
  try {
    const status = await fleetStatus(redis);
    if (flags.json) {
      process.stdout.write(`${JSON.stringify(status)}\n`);
      return 0;
    }
    const { counts } = status;
    let out = `Fleet on ${address.display}\n`;
    out += `turns: ${counts.waiting} waiting, ${counts.running} running, ${counts.delayed} parked, ${counts.failed} failed, ${counts.completed} completed\n`;
    out += `workers: ${status.workers.length}\n`;
    for (const worker of status.workers) {
      const runs = status.running.filter((run) => run.worker === worker.name);
      out += `  ${worker.name} (${worker.address}, idle ${worker.idleS}s): ${runs.length ? runs.map((run) => `${run.sessionId} turn ${run.turn}`).join(', ') : 'no turn'}\n`;
    }
    const orphans = status.running.filter((run) => !status.workers.some((w) => w.name === run.worker));
    for (const run of orphans)
      out += `  (a worker that is gone: ${run.worker}): ${run.sessionId} turn ${run.turn}, taken over once its lease expires\n`;
    process.stdout.write(out);
    return 0;
  } finally {
    redis.disconnect();
  }
}
